import { createServer } from "node:net"
import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it, layer } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Logger, LogLevel, Redacted } from "effect"
import { makePgClient } from "@tks/db/client"
import { TEST_POOL, testDatabaseLayer } from "@tks/db/test-database"
import { classifySqlError, sqlStateOf } from "@tks/db/sql-errors"
import { DatabaseConflict, withInfrastructureErrors } from "../src/http/infrastructure-errors.js"

/** The SqlError a statement fails with, from the real driver and database. */
const failureOf = <A>(statement: Effect.Effect<A, SqlError>) =>
  Effect.flip(statement).pipe(Effect.filterOrDieMessage((e): e is SqlError => e._tag === "SqlError", "expected a SqlError"))

/** A loopback port nothing listens on. */
const closedPort = Effect.promise(() =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1))
    })
  })
)

const quiet = Logger.minimumLogLevel(LogLevel.None)

layer(testDatabaseLayer({ migrations: {} }), { excludeTestServices: true })("SqlError by SQLSTATE, real database", (it) => {
  it.effect("a NUL byte in a text parameter is a data error (class 22): the caller's 400, not an outage", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* failureOf(sql`SELECT ${"a\u0000b"}::text AS value`)
      expect(sqlStateOf(error)?.slice(0, 2)).toBe("22")
      expect(classifySqlError(error)).toBe("data")
      const answer = yield* Effect.flip(withInfrastructureErrors(Effect.fail(error))).pipe(Effect.provide(quiet))
      expect(answer).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR" })
    }))

  it.effect("a value out of range is a data error too", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* failureOf(sql`SELECT ${"99999999999"}::int4 AS value`)
      expect(sqlStateOf(error)).toBe("22003")
      expect(classifySqlError(error)).toBe("data")
    }))

  it.effect("a unique violation (class 23) is a 409 conflict, answered as a Respondable defect", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* failureOf(
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`CREATE TEMP TABLE edge_unique (k int PRIMARY KEY) ON COMMIT DROP`
          yield* sql`INSERT INTO edge_unique VALUES (1)`
          yield* sql`INSERT INTO edge_unique VALUES (1)`
        }))
      )
      expect(sqlStateOf(error)).toBe("23505")
      expect(classifySqlError(error)).toBe("constraint")
      const exit = yield* Effect.exit(withInfrastructureErrors(Effect.fail(error))).pipe(Effect.provide(quiet))
      expect(Exit.isFailure(exit) && Cause.squash(exit.cause)).toBeInstanceOf(DatabaseConflict)
    }))

  it.effect("a syntax error (class 42) is our bug: a defect, so a logged 500", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* failureOf(sql`SELEC 1`)
      expect(sqlStateOf(error)).toBe("42601")
      expect(classifySqlError(error)).toBe("other")
      const exit = yield* Effect.exit(withInfrastructureErrors(Effect.fail(error)))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    }))
})

describe("SqlError when the database is away", () => {
  it.effect("a refused connection has no SQLSTATE and is unavailable: the 503 ServiceUnavailable", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const error = yield* Effect.flip(
        makePgClient(Redacted.make(`postgres://postgres@127.0.0.1:${port}/none`), {
          ...TEST_POOL,
          poolMax: 1,
          connectTimeout: Duration.seconds(2)
        }).pipe(Effect.flatMap((client) => client`SELECT 1`), Effect.scoped, Effect.provide(Reactivity.layer))
      )
      expect(sqlStateOf(error)).toBeUndefined()
      expect(classifySqlError(error)).toBe("unavailable")
      const answer = yield* Effect.flip(withInfrastructureErrors(Effect.fail(error))).pipe(Effect.provide(quiet))
      expect(answer).toMatchObject({ _tag: "ServiceUnavailable", code: "SERVICE_UNAVAILABLE" })
    }))

  it("connection, shutdown and resource SQLSTATEs, and pg's code-less connection errors, are unavailable", () => {
    const dbError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "ERROR" })
    const unavailable = [
      new SqlError({ message: "Failed to execute statement", cause: dbError("57P01", "terminating connection due to administrator command") }),
      new SqlError({ message: "Failed to execute statement", cause: dbError("08006", "connection failure") }),
      new SqlError({ message: "Failed to execute statement", cause: dbError("53300", "sorry, too many clients already") }),
      new SqlError({ message: "Failed to execute statement", cause: new Error("Connection terminated unexpectedly") }),
      new SqlError({ message: "Failed to execute statement", cause: new Error("Query read timeout") }),
      new SqlError({ message: "Failed to execute statement", cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) }),
      new SqlError({ message: "Failed to acquire connection", cause: new Error("timeout exceeded when trying to connect") })
    ]
    for (const error of unavailable) expect(classifySqlError(error), String(error.cause)).toBe("unavailable")
    // Not every code-less error is an outage: an unknown one is a logged 500.
    expect(classifySqlError(new SqlError({ message: "Failed to execute statement", cause: new TypeError("x is undefined") })))
      .toBe("other")
  })
})
