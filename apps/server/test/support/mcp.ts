import { Client } from "@modelcontextprotocol/client"
import type { Transport } from "@modelcontextprotocol/client"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Transport as LegacyTransport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { Effect } from "effect"
import { baseUrl } from "./server.js"

/**
 * The protocol generations a client may speak: 2026-07-28 (the SDK v2
 * client, pinned to it: `server/discover`, no handshake) and 2025-11-25
 * (the v1 SDK's client, as assistants built on it speak: `initialize`).
 */
export type McpGeneration = "2026-07-28" | "2025-11-25"
export const mcpGenerations: ReadonlyArray<McpGeneration> = ["2026-07-28", "2025-11-25"]

/** A JSON Schema object as tools/list publishes it. */
interface ObjectSchema {
  readonly type: "object"
  readonly properties?: Record<string, any>
  readonly required?: ReadonlyArray<string>
  readonly [key: string]: unknown
}

/** A tool as tools/list publishes it, in the fields both generations share. */
export interface ListedTool {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly inputSchema: ObjectSchema
  readonly outputSchema?: ObjectSchema
  readonly annotations?: { readonly readOnlyHint?: boolean; readonly [key: string]: unknown }
}

/** What the tests use of either SDK's client. */
export interface McpToolClient {
  readonly listTools: () => Promise<{ readonly tools: ReadonlyArray<ListedTool>; readonly [key: string]: unknown }>
  readonly callTool: (params: { readonly name: string; readonly arguments?: Record<string, unknown>; readonly _meta?: Record<string, unknown> }) => Promise<Record<string, unknown>>
  readonly readResource: (params: { readonly uri: string }) => Promise<{ readonly contents: ReadonlyArray<{ readonly uri: string; readonly text?: string; readonly mimeType?: string; readonly [key: string]: unknown }>; readonly [key: string]: unknown }>
  readonly listResources: (params?: { readonly cursor?: string }) => Promise<{ readonly resources: ReadonlyArray<{ readonly uri: string; readonly name: string; readonly [key: string]: unknown }>; readonly nextCursor?: string; readonly [key: string]: unknown }>
  readonly listResourceTemplates: () => Promise<{ readonly resourceTemplates: ReadonlyArray<{ readonly uriTemplate: string; readonly name: string; readonly [key: string]: unknown }>; readonly [key: string]: unknown }>
  readonly getServerCapabilities: () => Record<string, unknown> | undefined
  readonly close: () => Promise<void>
}

const clientInfo = { name: "tks-test", version: "1.0.0" }

/** An MCP `initialize` request body, as a plain HTTP client (curl) sends it. */
export const mcpInitialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } }
})

/** The Accept header the Streamable HTTP transport asks of a POST. */
export const mcpPostHeaders = { accept: "application/json, text/event-stream" }

/** The SDK v2 client on the 2026-07-28 protocol, connected over `transport` for the scope. */
export const connectClient = (transport: Transport) =>
  Effect.acquireRelease(
    Effect.tryPromise(async (): Promise<McpToolClient> => {
      const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: "2026-07-28" } } })
      await client.connect(transport)
      return client as unknown as McpToolClient
    }),
    (client) => Effect.promise(() => client.close())
  )

/** The v1 SDK's client (2025-11-25, with the `initialize` handshake), connected over `transport` for the scope. */
export const connectLegacyClient = (transport: LegacyTransport) =>
  Effect.acquireRelease(
    Effect.tryPromise(async (): Promise<McpToolClient> => {
      const client = new LegacyClient(clientInfo)
      await client.connect(transport)
      return client as unknown as McpToolClient
    }),
    (client) => Effect.promise(() => client.close())
  )

/**
 * An MCP client of the test server's /mcp (or `path`, an organization's
 * /mcp/{organizationId}), calling as the holder of `token` on the protocol
 * `generation` (2026-07-28 unless said).
 * It lists the tools first, so the SDK checks every structured result
 * against the tool's published output schema.
 */
export const mcpClient = (token: string, path = "/mcp", generation: McpGeneration = "2026-07-28") =>
  Effect.gen(function*() {
    const url = new URL(`${yield* baseUrl}${path}`)
    const requestInit = { headers: { authorization: `Bearer ${token}` } }
    const client = generation === "2026-07-28"
      ? yield* connectClient(new StreamableHTTPClientTransport(url, { requestInit }))
      : yield* connectLegacyClient(new LegacyHttpTransport(url, { requestInit }))
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
export const callTool = (client: McpToolClient, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(async (): Promise<ToolCall> => {
    const result = await client.callTool({ name, arguments: args })
    const content = result.content as ReadonlyArray<{ type: string; text?: string }>
    const text = content.map((part) => part.text ?? "").join("")
    const isError = result.isError === true
    return { isError, structured: isError ? JSON.parse(text) : result.structuredContent, text }
  })
