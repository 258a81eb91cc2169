import { classifyInboundRequest, isJsonContentType, SERVER_INFO_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server"
import { structuredJsonOf, type ToolResult } from "./dispatch.js"
import { serverInfo } from "./server.js"

/** The 2026-07-28 revision: the one whose answer `fastCallAnswer` writes. */
const MODERN_REVISION = "2026-07-28"

/**
 * A `tools/call` over HTTP that can be answered without an SDK server: a
 * well-formed call of a tool that exists, in the form the SDK would serve
 * as it is, so its answer is known to be the one the SDK gives.
 */
export interface FastCall {
  readonly era: "modern" | "legacy"
  readonly id: string | number
  readonly name: string
  readonly arguments: Record<string, unknown>
  readonly meta: unknown
}

type HeadersRecord = { readonly [name: string]: string | undefined }

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** What the SDK's 2025 transport asks of a POST's Accept: both JSON and an event stream. */
const acceptsBoth = (accept: string | undefined) =>
  accept !== undefined && accept.includes("application/json") && accept.includes("text/event-stream")

/**
 * The call this request is, when it may take the fast path; `undefined`
 * sends it to the SDK, which answers everything else (the handshake,
 * `server/discover`, lists, resources, notifications, batches) and every
 * refusal (a missing or mismatched header, an unknown tool, a bad
 * envelope), so those stay exactly the SDK's.
 *
 * The conditions are strict on purpose: the SDK's own classification must
 * call it a request of a revision the SDK serves; a 2026-07-28 call must
 * carry all three standard headers, equal to its body (the SDK checks their
 * presence and agreement); a 2025 call must be one the SDK's stateless
 * transport takes as it is (JSON content, Accept of both kinds, a protocol
 * version it supports or none).
 */
export const fastCallOf = (headers: HeadersRecord, body: unknown, knows: (name: string) => boolean): FastCall | undefined => {
  if (!isPlainObject(body) || body["method"] !== "tools/call" || !isJsonContentType(headers["content-type"] ?? "")) return undefined
  const { id, params } = body
  if ((typeof id !== "string" && typeof id !== "number") || !isPlainObject(params)) return undefined
  const { _meta: meta, arguments: args, name } = params
  if (typeof name !== "string" || !knows(name)) return undefined
  if (args !== undefined && !isPlainObject(args)) return undefined
  if (meta !== undefined && !isPlainObject(meta)) return undefined
  const version = headers["mcp-protocol-version"]
  const route = classifyInboundRequest({
    httpMethod: "POST",
    body,
    ...(version === undefined ? {} : { protocolVersionHeader: version }),
    ...(headers["mcp-method"] === undefined ? {} : { mcpMethodHeader: headers["mcp-method"] }),
    ...(headers["mcp-name"] === undefined ? {} : { mcpNameHeader: headers["mcp-name"] })
  })
  const call = { id, name, arguments: args ?? {}, meta }
  if (route.kind === "modern") {
    const served = route.messageKind === "request" && route.classification.revision === MODERN_REVISION &&
      version === MODERN_REVISION && headers["mcp-method"] === "tools/call" && headers["mcp-name"] === name &&
      (headers["accept"] ?? "").includes("application/json")
    return served ? { era: "modern", ...call } : undefined
  }
  if (route.kind === "legacy") {
    const served = route.reason === "no-claim" && acceptsBoth(headers["accept"]) &&
      (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version))
    return served ? { era: "legacy", ...call } : undefined
  }
  return undefined
}

/**
 * The JSON-RPC answer to a fast call, as the SDK writes it for the call's
 * generation: a 2026-07-28 result says it is complete and names the server
 * in `_meta`; a 2025 result is the tool result as it is. The structured
 * content is written from the JSON text the result already carries, not
 * serialized again (the same value, the same JSON).
 */
export const fastCallAnswer = (call: FastCall, result: ToolResult): string => {
  const modern = call.era === "modern" ? { resultType: "complete", _meta: { [SERVER_INFO_META_KEY]: serverInfo } } : {}
  const structured = result.structuredContent === undefined ? undefined : structuredJsonOf(result)
  if (structured === undefined) return JSON.stringify({ result: { ...result, ...modern }, jsonrpc: "2.0", id: call.id })
  // Written in the SDK's order: content, structuredContent, then the rest (isError, and the 2026-07-28 fields); each part serialized once.
  const { content, structuredContent: _, ...rest } = result
  const others = JSON.stringify({ ...rest, ...modern })
  const after = others === "{}" ? "" : `,${others.slice(1, -1)}`
  return `{"result":{"content":${JSON.stringify(content)},"structuredContent":${structured}${after}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`
}
