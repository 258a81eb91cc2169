import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix } from "./support/callers.js"
import { modernEnvelope } from "./support/mcp-envelope.js"
import { raw, TestServerLive } from "./support/server.js"
import { specTools } from "./support/tool-cases.js"

const envelope = modernEnvelope("curl")

const post = (token: string, message: Record<string, unknown>, headers: Record<string, string> = {}) =>
  raw("POST", "/mcp", { token, body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }), headers: { accept: "application/json, text/event-stream", ...headers } })

/** A 2026-07-28 request: the envelope in `_meta`, with the protocol version and method (and tool name) also in headers. */
const modern = (token: string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  post(token, { method, params: { ...params, _meta: envelope } }, {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof params["name"] === "string" ? { "mcp-name": params["name"] } : {}),
    ...headers
  })

const initialize = (token: string, protocolVersion: string) =>
  post(token, { method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "curl", version: "1" } } })

layer(TestServerLive, { excludeTestServices: true })("/mcp speaks both protocol generations", (it) => {
  it.effect("a 2026-07-28 client discovers the server with server/discover, which names the version and may be cached by anyone for five minutes", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const response = yield* modern(tokens.viewer, "server/discover")
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      expect(response.json.result).toMatchObject({
        supportedVersions: expect.arrayContaining(["2026-07-28"]),
        capabilities: { tools: { listChanged: false } },
        resultType: "complete",
        ttlMs: 300_000,
        cacheScope: "public"
      })
    }))

  it.effect("2026-07-28 tools/list carries resultType, ttlMs and cacheScope, and lists the same tools in the same order every time and for both generations", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const first = yield* modern(tokens.viewer, "tools/list")
      const second = yield* modern(tokens.admin, "tools/list")
      expect(first.json.result).toMatchObject({ resultType: "complete", ttlMs: 300_000, cacheScope: "public" })
      const names = (response: typeof first) => response.json.result.tools.map((tool: { name: string }) => tool.name)
      expect([...names(first)].sort()).toEqual([...specTools].sort())
      expect(names(second)).toEqual(names(first))
      const legacy = yield* post(tokens.viewer, { method: "tools/list", params: {} }, { "mcp-protocol-version": "2025-11-25" })
      expect(names(legacy)).toEqual(names(first))
      // The 2025 answer has none of the 2026 fields.
      expect(legacy.json.result).not.toHaveProperty("ttlMs")
      expect(legacy.json.result).not.toHaveProperty("resultType")
    }))

  it.effect("a 2026-07-28 request without the Mcp-Method header, or whose Mcp-Name names another tool, is refused and nothing is run", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const missing = yield* modern(tokens.viewer, "tools/list", {}, { "mcp-method": "" })
      expect(missing.status).toBe(400)
      expect(missing.json.error).toMatchObject({ code: -32020, message: expect.stringMatching(/Mcp-Method/) })
      const call = { name: "list_categories", arguments: {} }
      const mismatched = yield* modern(tokens.viewer, "tools/call", call, { "mcp-name": "list_spaces" })
      expect(mismatched.status).toBe(400)
      expect(mismatched.json.error).toMatchObject({ code: -32020, message: expect.stringMatching(/Mcp-Name/) })
      expect(mismatched.json).not.toHaveProperty("result")
      const answered = yield* modern(tokens.viewer, "tools/call", call)
      expect(answered.json.result).toMatchObject({ isError: false, resultType: "complete", structuredContent: { data: expect.any(Array) } })
    }))

  it.effect("2025-11-25 and 2025-06-18 clients are answered the version they asked for, statelessly (no session id), with one JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      for (const version of ["2025-11-25", "2025-06-18"]) {
        const response = yield* initialize(tokens.viewer, version)
        expect(response.status, version).toBe(200)
        expect(response.headers.get("content-type"), version).toMatch(/^application\/json/)
        expect(response.headers.get("mcp-session-id"), version).toBeNull()
        expect(response.json.result, version).toMatchObject({
          protocolVersion: version,
          serverInfo: { name: "training-knowledge-service" },
          capabilities: { tools: { listChanged: false } }
        })
        const call = yield* post(tokens.viewer, { method: "tools/call", params: { name: "list_categories", arguments: {} } }, {
          "mcp-protocol-version": version
        })
        expect(call.json.result, version).toMatchObject({ isError: false, structuredContent: { data: expect.any(Array) } })
      }
    }))

  it.effect("on both generations, a tool that does not exist is a protocol error (invalid params), while bad input to a real tool stays a tool error", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const unknown = { name: "delete_everything", arguments: {} }
      const modernAnswer = yield* modern(tokens.viewer, "tools/call", unknown)
      const legacyAnswer = yield* post(tokens.viewer, { method: "tools/call", params: unknown }, { "mcp-protocol-version": "2025-11-25" })
      for (const answer of [modernAnswer, legacyAnswer]) {
        expect(answer.json.error).toMatchObject({ code: -32602, message: expect.stringContaining("delete_everything") })
        expect(answer.json).not.toHaveProperty("result")
      }
      const badInput = yield* modern(tokens.viewer, "tools/call", { name: "get_topic", arguments: { topicId: 42 } })
      expect(badInput.json.result).toMatchObject({ isError: true })
      expect(JSON.parse(badInput.json.result.content[0].text)).toMatchObject({ code: "VALIDATION_ERROR" })
    }))
})
