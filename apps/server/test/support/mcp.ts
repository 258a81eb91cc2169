import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { Effect } from "effect"
import { baseUrl } from "./server.js"

/** An MCP `initialize` request body, as a plain HTTP client (curl) sends it. */
export const mcpInitialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } }
})

/** The Accept header the Streamable HTTP transport asks of a POST. */
export const mcpPostHeaders = { accept: "application/json, text/event-stream" }

/** The SDK's own client, connected over `transport` for the scope. */
export const connectClient = (transport: Transport) =>
  Effect.acquireRelease(
    Effect.tryPromise(async () => {
      const client = new Client({ name: "tks-test", version: "1.0.0" })
      await client.connect(transport)
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

/**
 * An MCP client of the test server's /mcp (or `path`, an organization's
 * /mcp/{organizationId}), calling as the holder of `token`.
 * It lists the tools first, so the SDK checks every structured result
 * against the tool's published output schema.
 */
export const mcpClient = (token: string, path = "/mcp") =>
  Effect.gen(function*() {
    const url = yield* baseUrl
    const client = yield* connectClient(
      new StreamableHTTPClientTransport(new URL(`${url}${path}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
    )
    yield* Effect.promise(() => client.listTools())
    return client
  })

export interface ToolCall {
  readonly isError: boolean
  /** The structured content, or for an error the error body its text carries. */
  readonly structured: any
  readonly text: string
}

/** Calls a tool; the result's structured content (an error's body) and its text. */
export const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(async (): Promise<ToolCall> => {
    const result = await client.callTool({ name, arguments: args })
    const content = result.content as ReadonlyArray<{ type: string; text?: string }>
    const text = content.map((part) => part.text ?? "").join("")
    const isError = result.isError === true
    return { isError, structured: isError ? JSON.parse(text) : result.structuredContent, text }
  })
