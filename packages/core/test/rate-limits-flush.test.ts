import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { TwoProcesses, twoProcesses } from "./support/rate-limiters.js"

// A day-long window, so a window boundary never falls inside a test.
const LIMIT = 10
const token = (key: string) => ({ organizationId: "org_flush", key })

const hitN = (limiter: { hit: (s: ReturnType<typeof token>) => Effect.Effect<unknown, TooManyRequests> }, subject: ReturnType<typeof token>, n: number) =>
  Effect.all(Array.from({ length: n }, () => Effect.either(limiter.hit(subject)))).pipe(
    Effect.map((results) => results.filter(Either.isRight).length)
  )

const shared = (key: string) =>
  TwoProcesses.pipe(
    Effect.flatMap(({ sql }) =>
      sql<{ hits: ReadonlyArray<number> }>`SELECT hits FROM rate_limit_counters WHERE org_id = 'org_flush' AND rule = 'requests' AND subject = ${key}`
    ),
    Effect.map((rows) => rows[0]?.hits[0])
  )

layer(twoProcesses({ seconds: 86_400, limit: LIMIT }))("RateLimiter.hit (the default limit, counted locally and flushed)", (it) => {
  it.effect("a hit makes no database round trip: nothing is in the database until a flush", () =>
    Effect.gen(function*() {
      const { a } = yield* TwoProcesses
      expect(yield* hitN(a, token("tok_quiet"), 3)).toBe(3)
      expect(yield* shared("tok_quiet")).toBeUndefined()
      yield* a.flush
      expect(yield* shared("tok_quiet")).toBe(3)
    }))

  it.effect("after both processes flush, they agree on the shared count and refuse at the limit", () =>
    Effect.gen(function*() {
      const { a, b } = yield* TwoProcesses
      const subject = token("tok_shared")
      expect(yield* hitN(a, subject, 6)).toBe(6)
      yield* a.flush
      // b learns the shared count with its first flush, then grants only what is left.
      expect(yield* hitN(b, subject, 1)).toBe(1)
      yield* b.flush
      expect(yield* hitN(b, subject, 5)).toBe(3)
      yield* b.flush
      // a has not flushed since: it grants one more (the bounded overshoot), then learns.
      expect(yield* hitN(a, subject, 1)).toBe(1)
      yield* a.flush
      expect(yield* hitN(a, subject, 3)).toBe(0)
      expect(yield* hitN(b, subject, 3)).toBe(0)
      // Every granted call reached the shared count; no refused one did.
      expect(yield* shared("tok_shared")).toBe(LIMIT + 1)
    }))

  it.effect("a refusal is a TooManyRequests for the token's limit with the seconds until the window ends", () =>
    Effect.gen(function*() {
      const { a } = yield* TwoProcesses
      yield* hitN(a, token("tok_full"), LIMIT)
      const refused = yield* Effect.flip(a.hit(token("tok_full")))
      expect(refused).toBeInstanceOf(TooManyRequests)
      expect(refused).toMatchObject({ code: "RATE_LIMITED", limit: LIMIT })
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(86_400)
    }))

  it.effect("flushes from both processes at once add up (one multi-row statement each, no lost counts)", () =>
    Effect.gen(function*() {
      const { a, b } = yield* TwoProcesses
      const keys = ["tok_m1", "tok_m2", "tok_m3"]
      for (const key of keys) {
        yield* hitN(a, token(key), 2)
        yield* hitN(b, token(key), 3)
      }
      yield* Effect.all([a.flush, b.flush], { concurrency: "unbounded" })
      for (const key of keys) expect(yield* shared(key)).toBe(5)
    }))
})
