import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect, Runtime } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { parseBearer } from "@tks/domain/bearer"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import { makeMcpServer } from "@tks/mcp/protocol/server"
import { errorResponse } from "../http/error-response.js"
import { withDatabaseAvailability } from "../http/infrastructure-errors.js"

export const MCP_PATH = "/mcp"

const unauthorized = () =>
  errorResponse(401, { _tag: "Unauthorized", code: "UNAUTHORIZED", message: "The bearer token is missing, invalid, expired or revoked" })

/**
 * POST /mcp: the MCP Streamable HTTP transport, stateless (no session; each
 * POST is answered with JSON), on the same server as /v1. A request without
 * a valid bearer token is 401 with `WWW-Authenticate` (added to every 401 by
 * the edge) before MCP is spoken at all; every tool call then re-reads the
 * token's person (ToolAuthorization). Tool calls run in this request's
 * runtime, so their spans are children of the request's span. GET (a
 * server-sent event stream) and DELETE (a session) are 405: there is neither.
 */
export const McpRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const dispatcher = yield* ToolDispatcher
    const authenticator = yield* Authenticator
    yield* router.add(
      "POST",
      MCP_PATH,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const known = yield* withDatabaseAvailability(
          authenticator.authenticate(parseBearer(request.headers.authorization) ?? "").pipe(
            Effect.as(true),
            Effect.catchTag("Unauthorized", () => Effect.succeed(false))
          )
        )
        if (!known) return unauthorized()
        const runtime = yield* Effect.runtime<never>()
        const server = makeMcpServer(dispatcher, { headers: request.headers, run: Runtime.runPromise(runtime) })
        const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
        const web = yield* HttpServerRequest.toWeb(request)
        return yield* Effect.acquireUseRelease(
          Effect.promise(() => server.connect(transport)),
          () => Effect.promise(() => transport.handleRequest(web)).pipe(Effect.map(HttpServerResponse.fromWeb)),
          () => Effect.promise(() => server.close())
        )
      })
    )
  })
)
