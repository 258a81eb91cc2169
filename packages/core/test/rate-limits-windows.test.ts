import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { RateLimitRepo } from "../src/rate-limits/repo.js"
import { defineRule } from "@tks/domain/rate-limit-rules"
import { sweepExpiredCounters } from "../src/rate-limits/sweep.js"
import { refusalOf, TwoProcesses, twoProcesses } from "./support/rate-limiters.js"

const DAY = 86_400
const org = "org_windows"

// The windows are the database's: wait on its clock, not the test's.
const untilNextSecond = TwoProcesses.pipe(
  Effect.flatMap(({ sql }) => sql<{ ms: number }>`SELECT (1000 - extract(milliseconds FROM now())::numeric % 1000)::float8 AS ms`),
  Effect.flatMap((rows) => Effect.sleep(Duration.millis(rows[0]!.ms + 50)))
)

const frozenClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  TwoProcesses.pipe(Effect.flatMap(({ sql }) => sql.withTransaction(effect)))

// Real time: these tests wait for a one-second window to end.
layer(twoProcesses(), { excludeTestServices: true })("rate-limit windows on the database clock", (it) => {
  it.effect("when the short window ends its count starts again, and a refused call never reached the long window", () =>
    Effect.gen(function*() {
      const { a, b } = yield* TwoProcesses
      const rule = defineRule({ name: "rollover", windows: [{ seconds: 1, limit: 2 }, { seconds: DAY, limit: 3 }] })
      const subject = { organizationId: org, key: "usr_roll" }
      const refusedShort = yield* frozenClock(Effect.gen(function*() {
        yield* a.consume(rule, subject)
        yield* b.consume(rule, subject)
        return yield* refusalOf(a.consume(rule, subject))
      }))
      expect(refusedShort).toMatchObject({ limit: 2, retryAfterSeconds: 1 })
      yield* untilNextSecond
      // Had the refused call counted in the hour, the hour would now be full.
      const third = yield* frozenClock(b.consume(rule, subject))
      expect(third).toMatchObject({ limit: 3, remaining: 0 })
      const refusedLong = yield* refusalOf(a.consume(rule, subject))
      expect(refusedLong.limit).toBe(3)
      expect(refusedLong.retryAfterSeconds).toBeGreaterThan(1)
    }))

  it.effect("the sweep deletes counters whose every window has ended and keeps the others", () =>
    Effect.gen(function*() {
      const { a, sql } = yield* TwoProcesses
      const short = defineRule({ name: "sweep-short", windows: [{ seconds: 1, limit: 5 }] })
      const long = defineRule({ name: "sweep-long", windows: [{ seconds: 1, limit: 5 }, { seconds: DAY, limit: 50 }] })
      yield* a.consume(short, { organizationId: org, key: "usr_sweep" })
      yield* a.consume(long, { organizationId: org, key: "usr_sweep" })
      yield* untilNextSecond
      yield* sweepExpiredCounters.pipe(Effect.provide(RateLimitRepo.Default), Effect.provideService(SqlClient.SqlClient, sql))
      const rules = yield* sql<{ rule: string }>`SELECT rule FROM rate_limit_counters WHERE org_id = ${org} AND subject = 'usr_sweep'`
      expect(rules.map((r) => r.rule)).toEqual(["sweep-long"])
      // A swept subject starts from nothing.
      expect(yield* a.consume(short, { organizationId: org, key: "usr_sweep" })).toMatchObject({ remaining: 4 })
    }))
})
