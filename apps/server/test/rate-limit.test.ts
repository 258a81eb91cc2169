import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { clearOfMinuteEnd } from "./support/contributors.js"
import { importFixture, raw, TestServerLive } from "./support/server.js"

const LIMIT = 3

// A tiny default limit for this server only; everything else from the environment (TEST_DATABASE_URL).
const TinyLimit = Layer.setConfigProvider(
  ConfigProvider.fromMap(new Map([["RATE_LIMIT_PER_MINUTE", String(LIMIT)]])).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )
)

const setup = Effect.cached(importFixture({
  organization: { name: "Limited Org" },
  people: [
    { key: "ann", name: "Ann Active", email: "ann@limited.test", role: "admin", tokenScopes: [] },
    { key: "bob", name: "Bob Busy", email: "bob@limited.test", role: "viewer", tokenScopes: [] },
    { key: "cid", name: "Cid Chatbot", email: "cid@limited.test", role: "viewer", tokenScopes: [] }
  ]
}))

layer(TestServerLive.pipe(Layer.provide(TinyLimit)), { excludeTestServices: true })("the default per-token rate limit (RATE_LIMIT_PER_MINUTE)", (it) => {
  it.effect("a request over the limit gets 429 with the JSON body, Retry-After in whole seconds and RateLimit-* headers", () =>
    Effect.gen(function*() {
      const { tokens } = yield* yield* setup
      yield* clearOfMinuteEnd
      const granted = []
      for (let i = 0; i < LIMIT; i++) granted.push(yield* raw("GET", "/v1/me", { token: tokens.ann }))
      expect(granted.map((r) => r.status)).toEqual([200, 200, 200])
      expect(granted.map((r) => r.headers.get("ratelimit-limit"))).toEqual(["3", "3", "3"])
      expect(granted.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"])
      const reset = Number(granted[0]!.headers.get("ratelimit-reset"))
      expect(reset).toBeGreaterThanOrEqual(1)
      expect(reset).toBeLessThanOrEqual(60)

      const refused = yield* raw("GET", "/v1/me", { token: tokens.ann })
      expect(refused.status).toBe(429)
      expect(refused.headers.get("content-type")).toMatch(/^application\/json/)
      expect(refused.json).toEqual({
        _tag: "TooManyRequests",
        code: "RATE_LIMITED",
        message: "Too many requests for this access token",
        limit: LIMIT,
        retryAfterSeconds: expect.any(Number),
        requestId: expect.any(String)
      })
      const retryAfter = refused.headers.get("retry-after")
      expect(retryAfter).toMatch(/^[1-9]\d*$/)
      expect(Number(retryAfter)).toBe(refused.json.retryAfterSeconds)
      expect(Number(retryAfter)).toBeLessThanOrEqual(60)
      expect(refused.headers.get("ratelimit-limit")).toBe("3")
      expect(refused.headers.get("ratelimit-remaining")).toBe("0")
      expect(refused.headers.get("ratelimit-reset")).toBe(retryAfter)
    }))

  it.effect("each token has its own count; requests without a valid token are not counted and carry no RateLimit headers", () =>
    Effect.gen(function*() {
      const { tokens } = yield* yield* setup
      yield* clearOfMinuteEnd
      const other = yield* raw("GET", "/v1/me", { token: tokens.bob })
      expect(other.status).toBe(200)
      expect(other.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1))
      for (let i = 0; i < LIMIT + 1; i++) {
        const anonymous = yield* raw("GET", "/v1/me", { token: "tks_never-issued" })
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("ratelimit-limit")).toBeNull()
        expect(anonymous.headers.get("retry-after")).toBeNull()
      }
    }))

  it.effect("MCP requests count against the same per-token limit: over it, /mcp is 429 with Retry-After and the JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* yield* setup
      yield* clearOfMinuteEnd
      const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_categories", arguments: {} } })
      const headers = { accept: "application/json, text/event-stream" }
      const granted = []
      for (let i = 0; i < LIMIT; i++) granted.push(yield* raw("POST", "/mcp", { token: tokens.cid, body: call, headers }))
      expect(granted.map((r) => r.status)).toEqual([200, 200, 200])
      const refused = yield* raw("POST", "/mcp", { token: tokens.cid, body: call, headers })
      expect(refused.status).toBe(429)
      expect(refused.json).toMatchObject({ _tag: "TooManyRequests", code: "RATE_LIMITED", limit: LIMIT })
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }))

  it.effect("the OpenAPI document declares the 429 and its body on every endpoint", () =>
    Effect.gen(function*() {
      const doc = (yield* raw("GET", "/v1/openapi.json")).json
      const operations = Object.values<Record<string, { responses: Record<string, unknown> }>>(doc.paths).flatMap(Object.values)
      expect(operations.length).toBeGreaterThan(0)
      for (const operation of operations) expect(operation.responses).toHaveProperty("429")
      const schemas = JSON.stringify(doc.components.schemas.TooManyRequests)
      expect(schemas).toContain("retryAfterSeconds")
    }))
})
