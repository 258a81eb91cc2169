import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv"
import type { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { ToolDispatcher } from "./dispatch.js"
import { answerResourceRequest } from "./resources.js"

export const serverInfo = { name: "training-knowledge-service", title: "Training and Knowledge Service", version: "1.0.0" } as const

const instructions =
  "Read-only tools over an organization's business knowledge (categories > spaces > topics > items, with the content they came from), its org chart (company roles, third parties, RACI duties), training (lessons), data-quality issues and knowledge maturity. Everything is limited to what the token's person may read, as over HTTP. Start with search_service to find ids; list tools page with `cursor` (pass back `nextCursor`) and `limit`. search_service, get_topic, get_item and get_content_knowledge cite the content they rest on as resource links (tks://content/…, with the quote's #char= range or the video's #t= range): read one with resources/read to quote the source rather than paraphrase it."

// The SDK makes a validator (an Ajv instance) per Server unless given one, and
// a Server is made per HTTP request: one for the process.
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/**
 * The tool list is the same for every caller and changes only with a new
 * release, so 2026-07-28 clients may keep it for a while and share it; a
 * tool the caller may not use answers with the HTTP twin's 403.
 */
const cacheHints = {
  "tools/list": { ttlMs: 300_000, cacheScope: "public" },
  "server/discover": { ttlMs: 300_000, cacheScope: "public" }
} as const

/**
 * An MCP server (the SDK's low-level `Server`: the high-level `registerTool`
 * wants its own schema objects, and ours are Effect Schemas already turned
 * into JSON Schema by the catalogue) whose tools/list and tools/call are the
 * dispatcher's, and resources/list, resources/templates/list and
 * resources/read its content resources'. One factory serves both protocol generations: the serving
 * entry (HTTP or stdio) decides the era and the SDK speaks it. `caller`
 * reads the person behind a call (a failure is the tool error); `run` runs
 * an effect in the transport's runtime, under its span.
 */
export const makeMcpServer = <E>(
  dispatcher: ToolDispatcher,
  options: {
    readonly caller: Effect.Effect<Actor, E>
    readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
  }
): Server => {
  const server = new Server(serverInfo, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } },
    instructions,
    jsonSchemaValidator,
    cacheHints
  })
  server.setRequestHandler("tools/list", () => ({ tools: dispatcher.listed as Array<never> }))
  server.setRequestHandler("tools/call", (request) => {
    const { name } = request.params
    // A tool that does not exist is the request's mistake, answered as a protocol error (invalid params), as MCP asks; everything after is a tool error.
    if (!dispatcher.knows(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`)
    return options.run(dispatcher.call(name, request.params.arguments ?? {}, options.caller, request.params._meta)) as Promise<never>
  })
  const { resources } = dispatcher
  server.setRequestHandler("resources/templates/list", () => resources.templates as never)
  server.setRequestHandler("resources/read", (request) =>
    answerResourceRequest(options.run, resources.read(request.params.uri, options.caller)) as Promise<never>)
  server.setRequestHandler("resources/list", (request) =>
    answerResourceRequest(options.run, resources.list(request.params?.cursor, options.caller)) as Promise<never>)
  return server
}
