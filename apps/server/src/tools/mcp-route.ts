import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect, Runtime } from "effect"
import { ToolCallers } from "@tks/mcp/authorization"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import { makeMcpServer } from "@tks/mcp/protocol/server"
import { errorResponse } from "../http/error-response.js"
import { refusal } from "./refusal.js"

export const MCP_PATH = "/mcp"
const SDK_URL = `http://localhost${MCP_PATH}`

/** The SDK's answer as one buffered response: it is a single JSON message, so no stream needs bridging. */
const fromWebResponse = (response: Response) =>
  Effect.promise(() => response.arrayBuffer()).pipe(
    Effect.map((body) =>
      HttpServerResponse.uint8Array(new Uint8Array(body), {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        contentType: response.headers.get("content-type") ?? "application/json"
      })
    )
  )

/**
 * The request for the SDK, with its JSON body already read and parsed here
 * (one read of the body, no stream handed across); a body that is not JSON
 * is passed as it came, for the SDK to answer with its JSON-RPC parse error.
 */
const webRequestOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(request.text, (text) => {
    let parsedBody: unknown = undefined
    try {
      parsedBody = JSON.parse(text)
    } catch {
      parsedBody = undefined
    }
    // The SDK reads the method and headers (Accept, Content-Type, MCP-Protocol-Version), never the URL.
    const web = new Request(SDK_URL, { method: "POST", headers: request.headers, body: parsedBody === undefined ? text : null })
    return { parsedBody, web }
  })

/**
 * POST /mcp: the MCP Streamable HTTP transport, stateless (no session; each
 * POST is answered with JSON), on the same server as /v1. The request's
 * bearer token is resolved to its person once, here, and counted against
 * the token's rate limit like any request: without a valid token it is 401
 * (with `WWW-Authenticate`, added to every 401 by the edge) before MCP is
 * spoken at all. The tool call this request carries runs as that person, in
 * this request's runtime, so its span is a child of the request's span.
 * GET (a server-sent event stream) and DELETE (a session) are 405: there is
 * neither.
 */
export const McpRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const dispatcher = yield* ToolDispatcher
    const callers = yield* ToolCallers
    yield* router.add(
      "POST",
      MCP_PATH,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const actor = yield* Effect.either(callers.authenticate(request.headers))
        if (actor._tag === "Left") return yield* refusal(actor.left)
        const read = yield* Effect.either(webRequestOf(request))
        if (read._tag === "Left") {
          return errorResponse(400, { _tag: "BadRequest", code: "BAD_REQUEST", message: "The request body could not be read" })
        }
        const { parsedBody, web } = read.right
        const runtime = yield* Effect.runtime<never>()
        const server = makeMcpServer(dispatcher, { caller: Effect.succeed(actor.right), run: Runtime.runPromise(runtime) })
        const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
        return yield* Effect.acquireUseRelease(
          Effect.promise(() => server.connect(transport)),
          () =>
            Effect.promise(() => transport.handleRequest(web, parsedBody === undefined ? undefined : { parsedBody })).pipe(
              Effect.flatMap(fromWebResponse)
            ),
          () => Effect.promise(() => server.close())
        )
      })
    )
  })
)
