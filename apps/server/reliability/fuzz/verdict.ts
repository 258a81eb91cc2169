import type { FuzzResponse } from "./exchange.js"
import { type FuzzRequest, isBadCaller } from "./requests.js"

/**
 * The rules every answer keeps, whatever was sent: no 5xx but a declared
 * 503; every 4xx a JSON {code, message}; no `_tag` the contract does not
 * declare; a caller without a valid token never gets a 2xx.
 */
export interface Declared {
  readonly tags: ReadonlySet<string>
  readonly tags503: ReadonlySet<string>
}

// The envelope of an /rpc answer (@effect/rpc's NDJSON messages and an Exit's Cause), which carry a `_tag` of their own.
const rpcEnvelopeTags = new Set(["Exit", "Chunk", "Success", "Failure", "Fail", "Empty", "Sequential", "Parallel", "Pong"])

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const tagsIn = (value: unknown, into: Set<string> = new Set()): Set<string> => {
  if (Array.isArray(value)) for (const item of value) tagsIn(item, into)
  else if (isRecord(value)) {
    if (typeof value._tag === "string") into.add(value._tag)
    for (const field of Object.values(value)) tagsIn(field, into)
  }
  return into
}

const isErrorBody = (json: unknown) => isRecord(json) && typeof json.code === "string" && json.code !== "" && typeof json.message === "string"

// MCP's own protocol errors (a parse error, an unacceptable Accept header) are JSON-RPC error objects.
const isJsonRpcError = (json: unknown) =>
  isRecord(json) && json.jsonrpc === "2.0" && isRecord(json.error) && typeof json.error.code === "number" && typeof json.error.message === "string"

// A tool's error result on /mcp carries the error's body as its text.
const mcpToolErrorBodies = (json: unknown): Array<unknown> => {
  if (!isRecord(json) || !isRecord(json.result) || json.result.isError !== true || !Array.isArray(json.result.content)) return []
  return json.result.content.flatMap((part: unknown) => {
    if (!isRecord(part) || typeof part.text !== "string") return []
    try {
      return [JSON.parse(part.text)]
    } catch {
      return []
    }
  })
}

/** What is wrong with `response` as an answer to `request`; empty when nothing is. */
export const problemsOf = (request: FuzzRequest, response: FuzzResponse, declared: Declared): Array<string> => {
  const problems: Array<string> = []
  const { status, json } = response
  if (status === 0) problems.push("no answer (connection dropped or timed out)")
  if (status >= 500) {
    const declared503 = status === 503 && isRecord(json) && typeof json._tag === "string" && declared.tags503.has(json._tag) && isErrorBody(json)
    if (!declared503) problems.push(`status ${status}`)
  }
  // A HEAD answer has no body by definition.
  const bodiless = request.method === "HEAD"
  if (status >= 400 && !bodiless && !isErrorBody(json) && !(request.transport === "mcp" && isJsonRpcError(json))) {
    problems.push(`a ${status} without the JSON {code, message} body`)
  }
  // A CORS preflight (OPTIONS) is answered without a token by design.
  if (status >= 200 && status < 300 && request.method !== "OPTIONS" && isBadCaller(request.caller)) problems.push(`a ${status} for a caller with ${request.caller} token`)
  const allowed = (tag: string) => declared.tags.has(tag) || (request.transport === "rpc" && rpcEnvelopeTags.has(tag))
  const undeclared = [...tagsIn([json, ...mcpToolErrorBodies(json)])].filter((tag) => !allowed(tag))
  if (undeclared.length > 0) problems.push(`undeclared _tag ${undeclared.join(", ")}`)
  return problems
}

/** Whether the server accepted a request that may write: a 2xx to a /v1 request other than GET (the tools only read). */
export const mayHaveWritten = (request: FuzzRequest, response: FuzzResponse) =>
  request.transport === "http" && request.method !== "GET" && request.method !== "HEAD" && response.status >= 200 && response.status < 300
