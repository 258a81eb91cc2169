import { HttpLayerRouter, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect, Runtime } from "effect"
import { ToolCallers } from "@tks/mcp/authorization"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import { makeMcpServer } from "@tks/mcp/protocol/server"
import { OrganizationId } from "@tks/domain/ids"
import { errorResponse } from "../http/error-response.js"
import { mcpCallers } from "./mcp-callers.js"

/** The organization of /mcp/{organizationId}; none on /mcp. */
const organizationOfPath = Effect.map(HttpRouter.params, (params) =>
  params.organizationId === undefined ? undefined : OrganizationId.make(params.organizationId))

export const MCP_PATH = "/mcp"
/** An organization's own MCP resource (docs/mcp-oauth.md): the same tools, and its identity provider's tokens sign in too. */
export const MCP_ORGANIZATION_PATH = "/mcp/:organizationId"
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
 * neither. POST /mcp/{organizationId} is the same, as that organization's
 * resource: who may call it is decided in ./mcp-callers.ts.
 */
export const McpRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const dispatcher = yield* ToolDispatcher
    const gate = mcpCallers(yield* ToolCallers)
    const serveAt = (path: HttpRouter.PathInput) => router.add(
      "POST",
      path,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const organizationId = yield* organizationOfPath
        const actor = yield* Effect.either(gate.admit(request.headers, organizationId))
        if (actor._tag === "Left") return actor.left
        const read = yield* Effect.either(webRequestOf(request))
        if (read._tag === "Left") {
          return errorResponse(400, { _tag: "BadRequest", code: "BAD_REQUEST", message: "The request body could not be read" })
        }
        const { parsedBody, web } = read.right
        const scoped = yield* Effect.either(gate.checkScope(actor.right, parsedBody, organizationId))
        if (scoped._tag === "Left") return scoped.left
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
    yield* serveAt(MCP_PATH)
    yield* serveAt(MCP_ORGANIZATION_PATH)
  })
)
