import { describe, expect, it } from "@effect/vitest"
import { createMcpHandler } from "@modelcontextprotocol/server"
import { Effect } from "effect"
import { type ToolDispatcher, type ToolResult, toolSuccess } from "../src/protocol/dispatch.js"
import { fastCallAnswer, fastCallOf } from "../src/protocol/fast-call.js"
import { answerLegacyRequest } from "../src/protocol/legacy-http.js"
import { makeMcpServer } from "../src/protocol/server.js"

/**
 * The fast path must answer exactly what the SDK answers: each request
 * here is served by the SDK's own handlers (the 2026-07-28 handler, and the
 * stateless 2025 transport the HTTP route uses), with a server whose one
 * tool returns `result`, and compared with the fast path's answer.
 */
// As the dispatcher makes a success: its structured content's JSON is its first text part, which the fast path writes it from.
const value = { data: [{ id: "top_1", title: "Quoted \"text\", \u2028 and é" }], nextCursor: null }
const result = toolSuccess({
  value,
  text: JSON.stringify(value),
  note: "This page was cut to 1 of the 2 entries asked for.",
  links: [{ type: "resource_link", uri: "tks://content/cnt_1/chapters/2#char=3,9", name: "Chapter 2", mimeType: "text/plain" }]
} as never)
// A result from elsewhere: no JSON text kept beside it, so the whole answer is serialized.
const plain = { ...result } as ToolResult

const dispatcher = {
  listed: [],
  knows: (name: string) => name === "list_topics",
  call: () => Effect.succeed(result),
  resources: {}
} as unknown as ToolDispatcher

const serverFor = () => makeMcpServer(dispatcher, { caller: Effect.dieMessage("not asked"), run: Effect.runPromise })
const modernHandler = createMcpHandler(serverFor, { legacy: "reject" })

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {}
}
const json = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const modernHeaders = { ...json, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "list_topics" }
const call = (params: Record<string, unknown>, id: unknown = 7) => ({ jsonrpc: "2.0", id, method: "tools/call", params })
const modernCall = call({ name: "list_topics", arguments: { limit: 1 }, _meta: envelope })
const legacyCall = call({ name: "list_topics", arguments: { limit: 1 } }, "call-1")

/** The SDK's answer to the request, as the HTTP route would get it. */
const sdkAnswer = async (headers: Record<string, string>, body: unknown, era: "modern" | "legacy") => {
  const request = new Request("http://localhost/mcp", { method: "POST", headers, body: JSON.stringify(body) })
  const response = era === "modern"
    ? await modernHandler.fetch(request, { parsedBody: body })
    : await answerLegacyRequest(serverFor(), request, body)
  return { status: response.status, json: JSON.parse(await response.text()) as unknown }
}

describe("a tools/call answered on the fast path is answered as the SDK answers it", () => {
  const served: ReadonlyArray<[string, Record<string, string>, unknown, "modern" | "legacy"]> = [
    ["2026-07-28, all three headers", modernHeaders, modernCall, "modern"],
    ["2026-07-28, Accept of JSON only", { ...modernHeaders, accept: "application/json" }, modernCall, "modern"],
    ["2025-11-25", { ...json, "mcp-protocol-version": "2025-11-25" }, legacyCall, "legacy"],
    ["2025-06-18", { ...json, "mcp-protocol-version": "2025-06-18" }, legacyCall, "legacy"],
    ["2025 without a version header", json, legacyCall, "legacy"],
    ["2025, no arguments, a numeric id", json, call({ name: "list_topics" }, 0), "legacy"]
  ]
  for (const [label, headers, body, era] of served) {
    it.effect(`${label}: taken, and equal to the SDK's answer`, () =>
      Effect.promise(async () => {
        const fast = fastCallOf(headers, body, dispatcher.knows)
        expect(fast?.era).toBe(era)
        const sdk = await sdkAnswer(headers, body, era)
        expect(sdk.status).toBe(200)
        expect(JSON.parse(fastCallAnswer(fast!, result))).toEqual(sdk.json)
        expect(JSON.parse(fastCallAnswer(fast!, plain))).toEqual(sdk.json)
      }))
  }

  const { "mcp-name": _name, ...withoutName } = modernHeaders
  const left: ReadonlyArray<[string, Record<string, string>, unknown]> = [
    ["2026-07-28 without Mcp-Name", withoutName, modernCall],
    ["2026-07-28 whose Mcp-Name names another tool", { ...modernHeaders, "mcp-name": "list_spaces" }, modernCall],
    ["2026-07-28 without the protocol version header", { ...modernHeaders, "mcp-protocol-version": "" }, modernCall],
    ["a revision the SDK does not serve", modernHeaders, call({ name: "list_topics", _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } })],
    ["a tool that does not exist", json, call({ name: "drop_tables" })],
    ["arguments that are not an object", json, call({ name: "list_topics", arguments: [1] })],
    ["2025 with Accept of JSON only", { ...json, accept: "application/json" }, legacyCall],
    ["2025 naming a version the SDK does not support", { ...json, "mcp-protocol-version": "1999-01-01" }, legacyCall],
    ["a body that is not JSON content", { ...json, "content-type": "text/plain" }, legacyCall],
    ["a notification", json, { jsonrpc: "2.0", method: "tools/call", params: { name: "list_topics" } }],
    ["a null id", json, call({ name: "list_topics" }, null)],
    ["a batch", json, [legacyCall]],
    ["another method", json, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }]
  ]
  for (const [label, headers, body] of left) {
    it(`${label}: left to the SDK`, () => {
      expect(fastCallOf(headers, body, dispatcher.knows)).toBeUndefined()
    })
  }
})
