import { HttpApp, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type RateLimitDecision, TooManyRequests } from "@tks/domain/rate-limit"
import { withRateLimitHeaders } from "../src/http/rate-limit.js"

/** Runs checks the way a handler would, then answers 200 (or 429 when one refused), and returns the headers sent. */
const respond = (checks: ReadonlyArray<Effect.Effect<RateLimitDecision, TooManyRequests>>) =>
  Effect.promise(async () => {
    const app = Effect.gen(function*() {
      for (const check of checks) yield* withRateLimitHeaders(check)
      return HttpServerResponse.empty({ status: 200 })
    }).pipe(Effect.catchTag("TooManyRequests", () => HttpServerResponse.empty({ status: 429 })))
    const response = await HttpApp.toWebHandler(app)(new Request("http://test.local/"))
    return { status: response.status, headers: Object.fromEntries(response.headers) }
  })

const limitHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith("ratelimit-") || name === "retry-after"))

describe("withRateLimitHeaders", () => {
  it.effect("with two limits on one request, the headers are the one with fewer calls left, whichever came first", () =>
    Effect.gen(function*() {
      const loose = Effect.succeed({ limit: 600, remaining: 590, resetSeconds: 40 })
      const tight = Effect.succeed({ limit: 20, remaining: 4, resetSeconds: 12 })
      const expected = { "ratelimit-limit": "20", "ratelimit-remaining": "4", "ratelimit-reset": "12" }
      expect(limitHeaders((yield* respond([loose, tight])).headers)).toEqual(expected)
      expect(limitHeaders((yield* respond([tight, loose])).headers)).toEqual(expected)
    }))

  it.effect("a refusal after a granted limit sends Retry-After and the refusing limit's figures", () =>
    Effect.gen(function*() {
      const loose = Effect.succeed({ limit: 600, remaining: 590, resetSeconds: 40 })
      const refused = new TooManyRequests({ message: "no", limit: 3, retryAfterSeconds: 17 })
      const sent = yield* respond([loose, Effect.fail(refused)])
      expect(sent.status).toBe(429)
      expect(limitHeaders(sent.headers)).toEqual({
        "retry-after": "17",
        "ratelimit-limit": "3",
        "ratelimit-remaining": "0",
        "ratelimit-reset": "17"
      })
    }))
})
