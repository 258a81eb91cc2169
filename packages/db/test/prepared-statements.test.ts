import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Redacted } from "effect"
import pg from "pg"
import { clientContext, makePgClient } from "../src/client.js"
import { PLANNED_PER_CALL } from "../src/planned-per-call.js"
import { preparingClient, statementName, trimOnRelease } from "../src/prepared-statements.js"
import { provisionTestDatabase, TEST_POOL } from "../src/test-database.js"

// One connection, so every query and the look at pg_prepared_statements share
// one session (on PGlite all sockets share one anyway).
const poolOn = (url: Redacted.Redacted, capacity: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new pg.Pool({ connectionString: Redacted.value(url), max: 1, Client: preparingClient(capacity) })
      pool.on("release", trimOnRelease)
      return pool
    }),
    (pool) => Effect.promise(() => pool.end())
  )

const query = (pool: pg.Pool, text: string, values?: Array<unknown>) =>
  Effect.promise(() => pool.query(text, values))

// Parameterless, so it is never prepared itself.
const preparedNames = (pool: pg.Pool) =>
  Effect.map(
    query(pool, "SELECT name FROM pg_prepared_statements WHERE name LIKE 'tks\\_%' ORDER BY name"),
    (result) => result.rows.map((row: { name: string }) => row.name).sort()
  )

const A = "SELECT $1::int + 1 AS n"
const B = "SELECT $1::int + 2 AS n"
const C = "SELECT $1::int + 3 AS n"

describe("named prepared statements", () => {
  it.scoped("a parameterized statement is prepared once per connection, under a name taken from its text", () =>
    Effect.gen(function*() {
      const pool = yield* poolOn(yield* provisionTestDatabase(4), 10)
      const first = yield* query(pool, A, [1])
      const second = yield* query(pool, A, [41])
      expect([first.rows[0].n, second.rows[0].n]).toEqual([2, 42])
      expect(yield* preparedNames(pool)).toEqual([statementName(A)])
      const statement = yield* query(pool, "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'tks\\_%'")
      expect(statement.rows[0].statement).toBe(A)
    }))

  it.scoped("a connection keeps its capacity of statements and deallocates the least recently used when released", () =>
    Effect.gen(function*() {
      const pool = yield* poolOn(yield* provisionTestDatabase(4), 2)
      // A, B, then A again: B is now the least recently used.
      for (const text of [A, B, A, C]) yield* query(pool, text, [1])
      expect(yield* preparedNames(pool)).toEqual([statementName(A), statementName(C)].sort())
      // B comes back prepared again, and A (least recent now) makes room for it.
      expect((yield* query(pool, B, [1])).rows[0].n).toBe(3)
      expect(yield* preparedNames(pool)).toEqual([statementName(B), statementName(C)].sort())
    }))

  it.scoped("nothing is deallocated inside a transaction, only when the connection goes back", () =>
    Effect.gen(function*() {
      const pool = yield* poolOn(yield* provisionTestDatabase(4), 1)
      const client = yield* Effect.promise(() => pool.connect())
      yield* Effect.promise(() => client.query("BEGIN"))
      for (const text of [A, B, C]) yield* Effect.promise(() => client.query(text, [1]))
      const during = yield* Effect.promise(() =>
        client.query("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'tks\\_%'")
      )
      yield* Effect.promise(() => client.query("COMMIT"))
      client.release()
      expect(during.rows[0].n).toBe(3)
      expect(yield* preparedNames(pool)).toEqual([statementName(C)])
    }))

  it.scoped("a statement marked as planned per call is never prepared: its plan depends on its values", () =>
    Effect.gen(function*() {
      const pool = yield* poolOn(yield* provisionTestDatabase(4), 10)
      const text = `${PLANNED_PER_CALL} SELECT $1::int + 4 AS n`
      for (const value of [1, 2, 3, 4, 5, 6, 7]) expect((yield* query(pool, text, [value])).rows[0].n).toBe(value + 4)
      expect(yield* preparedNames(pool)).toEqual([])
    }))

  it.scoped("a statement that fails to prepare leaves the connection usable and is prepared once it can be", () =>
    Effect.gen(function*() {
      const pool = yield* poolOn(yield* provisionTestDatabase(4), 10)
      const text = "SELECT n FROM later_table WHERE n = $1"
      const failed = yield* Effect.either(Effect.tryPromise(() => pool.query(text, [1])))
      expect(failed._tag).toBe("Left")
      yield* query(pool, "CREATE TABLE later_table (n int)")
      yield* query(pool, "INSERT INTO later_table VALUES (1)")
      expect((yield* query(pool, text, [1])).rows).toEqual([{ n: 1 }])
      expect(yield* preparedNames(pool)).toEqual([statementName(text)])
    }))

  it.scoped("the SqlClient prepares its parameterized statements on PostgreSQL, never on PGlite behind its socket (one session for all)", () =>
    Effect.gen(function*() {
      const url = yield* provisionTestDatabase(4)
      const sql = Context.get(
        clientContext(
          yield* makePgClient(url, { ...TEST_POOL, poolMax: 1, preparedStatements: 10 }).pipe(
            Effect.provide(Reactivity.layer)
          )
        ),
        SqlClient.SqlClient
      )
      const rows = yield* sql<{ n: number }>`SELECT ${5}::int * 2 AS n`
      expect(rows).toEqual([{ n: 10 }])
      const prepared = yield* sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'tks\\_%'`
      const version = (yield* sql<{ version: string }>`SELECT version() AS version`)[0]!.version
      expect(prepared.map((row) => row.statement)).toEqual(/PGlite|emscripten/i.test(version) ? [] : ["SELECT $1::int * 2 AS n"])
    }))
})
