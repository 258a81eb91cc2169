import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import type { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { ToolDispatcher, ToolResult } from "./dispatch.js"

const serverInfo = { name: "training-knowledge-service", version: "1.0.0" } as const

const instructions =
  "Read-only tools over an organization's business knowledge (categories > spaces > topics > items, with the content they came from), its org chart (company roles, third parties, RACI duties), training (lessons), data-quality issues and knowledge maturity. Everything is limited to what the token's person may read, as over HTTP. Start with search_service to find ids; list tools page with `cursor` (pass back `nextCursor`) and `limit`."

// The SDK makes a validator (an Ajv instance) per Server unless given one, and
// the HTTP transport makes a Server per request: one for the process.
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/**
 * An MCP server (the SDK's low-level `Server`: `registerTool` takes zod schemas
 * only, and ours are Effect Schemas) whose
 * tools/list and tools/call are the dispatcher's. `caller` reads the person
 * behind a call (a failure is the tool error); `run` runs an effect in the
 * transport's runtime, under its span.
 */
export const makeMcpServer = <E>(
  dispatcher: ToolDispatcher,
  options: {
    readonly caller: Effect.Effect<Actor, E>
    readonly run: (effect: Effect.Effect<ToolResult>) => Promise<ToolResult>
  }
): Server => {
  const server = new Server(serverInfo, { capabilities: { tools: { listChanged: false } }, instructions, jsonSchemaValidator })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: dispatcher.listed as Array<never> }))
  server.setRequestHandler(
    CallToolRequestSchema,
    (request) => options.run(dispatcher.call(request.params.name, request.params.arguments ?? {}, options.caller, request.params._meta))
  )
  return server
}
