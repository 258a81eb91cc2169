import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Layer } from "effect"
import { importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * /rpc counts against the token's default rate limit like any request, once
 * per HTTP request: over it, 429 with Retry-After and the JSON body, as /mcp
 * (it used to be a 200 carrying a TooManyRequests exit).
 */
const LIMIT = 3

const TinyLimit = Layer.setConfigProvider(
  ConfigProvider.fromMap(new Map([["RATE_LIMIT_PER_MINUTE", String(LIMIT)]])).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )
)

const setup = Effect.cached(importFixture({
  organization: { name: "Rpc Limited Org" },
  people: [{ key: "cid", name: "Cid Client", email: "cid@rpc-limited.test", role: "viewer", tokenScopes: [] }]
}))

// The limit is per minute: start the burst early enough in a minute that it cannot straddle two.
const clearOfMinuteEnd = Effect.suspend(() => {
  const left = 60_000 - (Date.now() % 60_000)
  return left < 5_000 ? Effect.sleep(Duration.millis(left + 100)) : Effect.void
})

layer(TestServerLive.pipe(Layer.provide(TinyLimit)), { excludeTestServices: true })("the rate limit on /rpc", (it) => {
  it.effect("the limit's requests are answered; the next is 429 with Retry-After and the JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* yield* setup
      yield* clearOfMinuteEnd
      const body = `${JSON.stringify({ _tag: "Request", id: "0", tag: "list_categories", payload: {}, headers: [] })}\n`
      const headers = { "content-type": "application/ndjson" }
      const granted = []
      for (let i = 0; i < LIMIT; i++) granted.push(yield* raw("POST", "/rpc", { token: tokens.cid, body, headers }))
      expect(granted.map((r) => r.status)).toEqual([200, 200, 200])
      for (const response of granted) expect(JSON.parse(response.text.trim())).toMatchObject({ _tag: "Exit", exit: { _tag: "Success" } })
      const refused = yield* raw("POST", "/rpc", { token: tokens.cid, body, headers })
      expect(refused.status).toBe(429)
      expect(refused.json).toMatchObject({ _tag: "TooManyRequests", code: "RATE_LIMITED", limit: LIMIT })
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }))
})
