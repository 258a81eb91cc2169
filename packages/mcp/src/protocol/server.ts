import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import type { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { ToolDispatcher } from "./dispatch.js"
import { answerResourceRequest } from "./resources.js"

const serverInfo = { name: "training-knowledge-service", version: "1.0.0" } as const

const instructions =
  "Read-only tools over an organization's business knowledge (categories > spaces > topics > items, with the content they came from), its org chart (company roles, third parties, RACI duties), training (lessons), data-quality issues and knowledge maturity. Everything is limited to what the token's person may read, as over HTTP. Start with search_service to find ids; list tools page with `cursor` (pass back `nextCursor`) and `limit`."

// The SDK makes a validator (an Ajv instance) per Server unless given one, and
// the HTTP transport makes a Server per request: one for the process.
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/**
 * An MCP server (the SDK's low-level `Server`: `registerTool` takes zod schemas
 * only, and ours are Effect Schemas) whose
 * tools/list and tools/call are the dispatcher's, and resources/list,
 * resources/templates/list and resources/read its content resources'.
 * `caller` reads the person behind a call (a failure is the tool error, or
 * the resource request's error); `run` runs an effect in the transport's
 * runtime, under its span.
 */
export const makeMcpServer = <E>(
  dispatcher: ToolDispatcher,
  options: {
    readonly caller: Effect.Effect<Actor, E>
    readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
  }
): Server => {
  const capabilities = { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } }
  const server = new Server(serverInfo, { capabilities, instructions, jsonSchemaValidator })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: dispatcher.listed as Array<never> }))
  server.setRequestHandler(
    CallToolRequestSchema,
    (request) => options.run(dispatcher.call(request.params.name, request.params.arguments ?? {}, options.caller, request.params._meta))
  )
  const { resources } = dispatcher
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resources.templates)
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    answerResourceRequest(options.run, resources.read(request.params.uri, options.caller)))
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    answerResourceRequest(options.run, resources.list(request.params?.cursor, options.caller)))
  return server
}
