import { HttpLayerRouter, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { createMcpHandler, isLegacyRequest, type McpRequestContext } from "@modelcontextprotocol/server"
import { Effect, Runtime } from "effect"
import type { Actor } from "@tks/domain/actor"
import { ToolCallers } from "@tks/mcp/authorization"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import { fastCallAnswer, fastCallOf } from "@tks/mcp/protocol/fast-call"
import { answerLegacyRequest } from "@tks/mcp/protocol/legacy-http"
import { makeMcpServer } from "@tks/mcp/protocol/server"
import { OrganizationId } from "@tks/domain/ids"
import { errorResponse } from "../http/error-response.js"
import { mcpCallers } from "./mcp-callers.js"
import { asTransport } from "./transport-origin.js"

/** The organization of /mcp/{organizationId}; none on /mcp. */
const organizationOfPath = Effect.map(HttpRouter.params, (params) =>
  params.organizationId === undefined ? undefined : OrganizationId.make(params.organizationId))

export const MCP_PATH = "/mcp"
/** An organization's own MCP resource (docs/mcp-oauth.md): the same tools, and its identity provider's tokens sign in too. */
export const MCP_ORGANIZATION_PATH = "/mcp/:organizationId"
const SDK_URL = `http://localhost${MCP_PATH}`

/** What one request's server needs from this request: the person calling, and the request's runtime to run tools in. */
interface Served {
  readonly actor: Actor
  readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
}

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

/** The request's body, read once, and parsed when it is JSON (undefined when not: the SDK answers that with its JSON-RPC parse error). */
const bodyOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(request.text, (text) => {
    try {
      return { text, parsed: JSON.parse(text) as unknown }
    } catch {
      return { text, parsed: undefined }
    }
  })

/**
 * The request for the SDK, with the body already read and parsed here (no
 * stream handed across): the SDK reads the method and headers (Accept,
 * Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name), never the URL.
 */
const webRequestOf = (request: HttpServerRequest.HttpServerRequest, body: { readonly text: string; readonly parsed: unknown }) =>
  new Request(SDK_URL, { method: "POST", headers: request.headers, body: body.parsed === undefined ? body.text : null })

/**
 * POST /mcp: MCP over Streamable HTTP, stateless, on the same server as /v1,
 * for both protocol generations. A 2026-07-28 request (its protocol version
 * in `_meta` and its method in `Mcp-Method`, `server/discover` instead of a
 * handshake) is answered by the SDK's handler; a 2025-era request
 * (`initialize`, then calls, no session) by a transport made for it. Both
 * use a server made for the request from one factory, so both see the same
 * tools.
 *
 * The request's bearer token is resolved to its person once, here, and
 * counted against the token's rate limit like any request: without a valid
 * token it is 401 (with `WWW-Authenticate`, added to every 401 by the edge)
 * before MCP is spoken at all. The person and this request's runtime reach
 * the server as the request's validated auth info, so a tool call runs as
 * that person and its span is a child of the request's span.
 * GET (a server-sent event stream) and DELETE (a session) are 405: there is
 * neither. POST /mcp/{organizationId} is the same, as that organization's
 * resource: who may call it is decided in ./mcp-callers.ts.
 *
 * A well-formed `tools/call` of a tool that exists, the request an
 * assistant sends most, takes a fast path: the tool runs in this request's
 * fiber and its answer is written as the SDK would write it, without a
 * server and transport made for the request (about half of a call's cost
 * on the SDK's path). `fastCallOf` takes only requests the SDK itself
 * classifies and would serve as they are; every other request, and every
 * refusal, is the SDK's.
 */
export const McpRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const dispatcher = yield* ToolDispatcher
    const gate = mcpCallers(yield* ToolCallers)
    const serverFor = (served: Served) => makeMcpServer(dispatcher, { caller: Effect.succeed(served.actor), run: served.run })
    const servedBy = (context: McpRequestContext) => {
      const served = context.authInfo?.extra?.["served"] as Served | undefined
      // The handler is only ever called below, with auth info: a call without it is a bug, never an open door.
      if (served === undefined) throw new Error("An MCP request reached the server without its caller")
      return serverFor(served)
    }
    // No tool sends anything before its result, so every modern answer is one JSON body (the SDK would switch to an event stream only for that).
    const modern = createMcpHandler(servedBy, { legacy: "reject" })
    const serveAt = (path: HttpRouter.PathInput) => router.add(
      "POST",
      path,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const organizationId = yield* organizationOfPath
        const actor = yield* Effect.either(gate.admit(request.headers, organizationId))
        if (actor._tag === "Left") return actor.left
        const read = yield* Effect.either(bodyOf(request))
        if (read._tag === "Left") {
          return errorResponse(400, { _tag: "BadRequest", code: "BAD_REQUEST", message: "The request body could not be read" })
        }
        const parsedBody = read.right.parsed
        const scoped = yield* Effect.either(gate.checkScope(actor.right, parsedBody, organizationId))
        if (scoped._tag === "Left") return scoped.left
        const fast = fastCallOf(request.headers, parsedBody, dispatcher.knows)
        if (fast !== undefined) {
          const result = yield* dispatcher.call(fast.name, fast.arguments, Effect.succeed(actor.right), fast.meta)
          return HttpServerResponse.text(fastCallAnswer(fast, result), { contentType: "application/json" })
        }
        const web = webRequestOf(request, read.right)
        const runtime = yield* Effect.runtime<never>()
        const served: Served = { actor: actor.right, run: Runtime.runPromise(runtime) }
        const authInfo = { token: "", clientId: actor.right.tokenId ?? actor.right.userId, scopes: [...actor.right.scopes], extra: { served } }
        const answer = (yield* Effect.promise(() => isLegacyRequest(web, parsedBody)))
          ? Effect.promise(() => answerLegacyRequest(serverFor(served), web, parsedBody))
          : Effect.promise(() => modern.fetch(web, parsedBody === undefined ? { authInfo } : { authInfo, parsedBody }))
        return yield* Effect.flatMap(answer, fromWebResponse)
        // Tool calls on either path (the SDK's runs in this request's runtime) carry the request's origin.
      }).pipe(asTransport("mcp"))
    )
    yield* serveAt(MCP_PATH)
    yield* serveAt(MCP_ORGANIZATION_PATH)
  })
)
