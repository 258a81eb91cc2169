import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Tracer } from "effect"
import { direct } from "../src/direct.js"
import { TestDatabaseLive } from "../src/test-database.js"

const sqlStateOf = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "cause" in error && typeof error.cause === "object" && error.cause !== null && "code" in error.cause
    ? error.cause.code
    : undefined

layer(TestDatabaseLive, { excludeTestServices: true })("a statement run direct", (it) => {
  it.effect("gives the rows the statement itself gives, with its parameters and fragments", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const statement = (n: number) =>
        sql<{ n: number; word: string; list: Array<number> }>`SELECT ${n}::int + 1 AS n, ${"it's"}::text AS word, ${sql.literal("ARRAY[1, 2]")} AS list`
      for (const n of [0, 41]) {
        const rows = yield* direct(sql, statement(n))
        expect(rows).toEqual([{ n: n + 1, word: "it's", list: [1, 2] }])
        expect(rows).toEqual(yield* statement(n))
      }
    }).pipe(Effect.withTracerEnabled(false)))

  it.effect("inside a transaction runs on the transaction's connection and sees its uncommitted writes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE IF NOT EXISTS direct_probe (id text PRIMARY KEY)`
      const seen = yield* sql.withTransaction(
        Effect.gen(function*() {
          yield* sql`INSERT INTO direct_probe (id) VALUES (${"in-transaction"})`
          // Failing rolls the transaction back, with what it read as the failure.
          return yield* Effect.fail(yield* direct(sql, sql<{ id: string }>`SELECT id FROM direct_probe WHERE id = ${"in-transaction"}`))
        })
      ).pipe(Effect.flip)
      expect(seen).toEqual([{ id: "in-transaction" }])
      // The failure rolled the transaction back: nothing was written.
      expect(yield* direct(sql, sql`SELECT id FROM direct_probe WHERE id = ${"in-transaction"}`)).toEqual([])
    }).pipe(Effect.withTracerEnabled(false)))

  it.effect("a statement the database refuses fails with SqlError carrying the database's SQLSTATE", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* Effect.flip(direct(sql, sql`SELECT 1 / ${0}::int AS n`))
      expect(error._tag).toBe("SqlError")
      expect(error.message).toBe("Failed to execute statement")
      expect(sqlStateOf(error)).toBe("22012")
      // The connection went back to the pool in good order.
      expect(yield* direct(sql, sql<{ n: number }>`SELECT ${2}::int AS n`)).toEqual([{ n: 2 }])
    }).pipe(Effect.withTracerEnabled(false)))

  it.effect("interrupted, it returns at once and the pool goes on answering", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const slow = yield* Effect.fork(direct(sql, sql`SELECT pg_sleep(${0.3}) AS slept`))
      yield* Effect.sleep("50 millis")
      const started = Date.now()
      yield* Fiber.interrupt(slow)
      expect(Date.now() - started).toBeLessThan(2000)
      expect(yield* direct(sql, sql<{ n: number }>`SELECT ${3}::int AS n`)).toEqual([{ n: 3 }])
    }).pipe(Effect.withTracerEnabled(false)))

  it.effect("with tracing on, the statement runs its own way and its sql.execute span is recorded", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const base = yield* Effect.tracer
      const names: Array<string> = []
      const recording = Tracer.make({
        span: (name, parent, context, links, startTime, kind, options) => {
          names.push(name)
          return base.span(name, parent, context, links, startTime, kind, options)
        },
        context: base.context
      })
      const rows = yield* direct(sql, sql<{ n: number }>`SELECT ${4}::int AS n`).pipe(Effect.withTracer(recording), Effect.withTracerEnabled(true))
      expect(rows).toEqual([{ n: 4 }])
      expect(names).toContain("sql.execute")
    }))
})
