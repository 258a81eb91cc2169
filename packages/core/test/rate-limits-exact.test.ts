import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { actLimits, defineRule } from "@tks/domain/rate-limit-rules"
import { orDieOnSql, refusalOf, TwoProcesses, twoProcesses } from "./support/rate-limiters.js"

const DAY = 86_400
const org = "org_exact"

const counters = (rule: string, subject: string) =>
  TwoProcesses.pipe(
    Effect.flatMap(({ sql }) =>
      sql<{ hits: ReadonlyArray<number> }>`SELECT hits FROM rate_limit_counters WHERE org_id = ${org} AND rule = ${rule} AND subject = ${subject}`
    ),
    Effect.map((rows) => rows[0]?.hits)
  )

// Inside one transaction now() stands still: the calls share one set of
// windows whatever the wall clock does. (Every client's statements inside
// withTransaction run on its connection, the limiters' included.)
const frozenClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  TwoProcesses.pipe(Effect.flatMap(({ sql }) => sql.withTransaction(effect)))

layer(twoProcesses())("RateLimiter.consume (exact, counted in the database)", (it) => {
  it.effect("60 concurrent calls from two processes at a limit of 25 grant exactly 25; every refusal is a TooManyRequests", () =>
    Effect.gen(function*() {
      const { a, b } = yield* TwoProcesses
      const rule = defineRule({ name: "edge", windows: [{ seconds: DAY, limit: 25 }] })
      const subject = { organizationId: org, key: "usr_edge" }
      const results = yield* Effect.all(
        Array.from({ length: 60 }, (_, i) => Effect.either(orDieOnSql((i % 2 === 0 ? a : b).consume(rule, subject)))),
        { concurrency: "unbounded" }
      )
      const granted = results.filter(Either.isRight).map((r) => r.right)
      const refused = results.filter(Either.isLeft).map((r) => r.left)
      expect(granted).toHaveLength(25)
      expect(granted.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i))
      expect(refused).toHaveLength(35)
      for (const error of refused) {
        expect(error).toBeInstanceOf(TooManyRequests)
        expect(error).toMatchObject({ code: "RATE_LIMITED", limit: 25 })
        expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(DAY)
      }
      expect(yield* counters("edge", "usr_edge")).toEqual([25])
    }))

  it.effect("refused by the short window, the call is counted in neither window", () =>
    frozenClock(Effect.gen(function*() {
      const { a } = yield* TwoProcesses
      const rule = defineRule({ name: "short-full", windows: [{ seconds: 60, limit: 2 }, { seconds: DAY, limit: 10 }] })
      const subject = { organizationId: org, key: "usr_short" }
      yield* a.consume(rule, subject)
      yield* a.consume(rule, subject)
      const refused = yield* refusalOf(a.consume(rule, subject))
      expect(refused).toMatchObject({ _tag: "TooManyRequests", limit: 2 })
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
      expect(yield* counters("short-full", "usr_short")).toEqual([2, 2])
    })))

  it.effect("refused by the long window, the call is counted in neither; Retry-After is the long window's", () =>
    frozenClock(Effect.gen(function*() {
      const { a, b } = yield* TwoProcesses
      const rule = defineRule({ name: "long-full", windows: [{ seconds: 60, limit: 10 }, { seconds: DAY, limit: 3 }] })
      const subject = { organizationId: org, key: "usr_long" }
      for (let i = 0; i < 3; i++) yield* a.consume(rule, subject)
      const refused = yield* refusalOf(b.consume(rule, subject))
      expect(refused).toMatchObject({ limit: 3 })
      expect(yield* counters("long-full", "usr_long")).toEqual([3, 3])
    })))

  it.effect("a granted call reports the window closest to running out", () =>
    frozenClock(Effect.gen(function*() {
      const { a } = yield* TwoProcesses
      const rule = defineRule({ name: "tightest", windows: [{ seconds: 60, limit: 5 }, { seconds: DAY, limit: 2 }] })
      const decision = yield* a.consume(rule, { organizationId: org, key: "usr_tight" })
      expect(decision).toMatchObject({ limit: 2, remaining: 1 })
    })))

  it.effect("a rule's own code and message are the 429's; subjects and organizations are counted apart", () =>
    frozenClock(Effect.gen(function*() {
      const { a } = yield* TwoProcesses
      const rule = actLimits.reviewSubmissions
      for (let i = 0; i < 3; i++) yield* a.consume(rule, { organizationId: org, key: "usr_writer" })
      const refused = yield* refusalOf(a.consume(rule, { organizationId: org, key: "usr_writer" }))
      expect(refused).toMatchObject({ code: "REVIEW_SUBMISSION_LIMIT_REACHED", message: rule.message, limit: 3 })
      expect(yield* a.consume(rule, { organizationId: org, key: "usr_other" })).toMatchObject({ remaining: 2 })
      expect(yield* a.consume(rule, { organizationId: "org_other", key: "usr_writer" })).toMatchObject({ remaining: 2 })
    })))

  it.effect("a cost over the limit is refused without counting; a cost that fits counts whole", () =>
    frozenClock(Effect.gen(function*() {
      const { a } = yield* TwoProcesses
      const rule = defineRule({ name: "characters", windows: [{ seconds: DAY, limit: 1000 }] })
      const subject = { organizationId: org, key: "org_exact" }
      expect(yield* refusalOf(a.consume(rule, subject, 1001))).toMatchObject({ limit: 1000 })
      expect(yield* a.consume(rule, subject, 600)).toMatchObject({ remaining: 400 })
      expect(yield* refusalOf(a.consume(rule, subject, 401))).toMatchObject({ limit: 1000 })
      expect(yield* a.consume(rule, subject, 400)).toMatchObject({ remaining: 0 })
      expect(yield* counters("characters", "org_exact")).toEqual([1000])
    })))
})
