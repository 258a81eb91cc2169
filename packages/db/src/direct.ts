import { SqlClient, Statement } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, FiberRef } from "effect"
import type pg from "pg"

// The pool each client made by client.ts runs on.
const pools = new WeakMap<object, pg.Pool>()

/** Records the pool `client` runs on (client.ts, as it makes the client). */
export const registerPool = (client: object, pool: pg.Pool): void => {
  pools.set(client, pool)
}

/** The pool `client` runs on, when client.ts made it. */
export const poolOf = (client: object): pg.Pool | undefined => pools.get(client)

// As sql-pg cancels a statement whose fiber is interrupted: best effort, bounded.
const cancelBackend = (pool: pg.Pool, client: pg.PoolClient): Effect.Effect<void> => {
  const processId: unknown = Reflect.get(client, "processID")
  if (typeof processId !== "number") return Effect.void
  return Effect.async<void>((resume) => {
    if (pool.ending) return resume(Effect.void)
    pool.query(`SELECT pg_cancel_backend(${processId})`, () => resume(Effect.void))
  }).pipe(Effect.interruptible, Effect.timeoutOption(5000), Effect.asVoid)
}

/**
 * One statement on a connection from the pool, as @effect/sql-pg runs it
 * outside a transaction (the same errors and messages, the same release, the
 * same cancellation when the fiber is interrupted), in one asynchronous step.
 */
const onPool = (pool: pg.Pool, text: string, params: ReadonlyArray<unknown>) =>
  Effect.async<ReadonlyArray<any>, SqlError>((resume) => {
    let done = false
    let client: pg.PoolClient | undefined
    const onError = (cause: Error) => {
      release(cause)
      resume(Effect.fail(new SqlError({ cause, message: "Connection error" })))
    }
    const release = (cause?: Error) => {
      if (!done) client?.release(cause)
      done = true
      client?.off("error", onError)
    }
    pool.connect((cause, connected) => {
      if (cause) return resume(Effect.fail(new SqlError({ cause, message: "Failed to acquire connection" })))
      if (connected === undefined) {
        return resume(Effect.fail(new SqlError({ message: "Failed to acquire connection", cause: new Error("No client returned") })))
      }
      if (done) return connected.release()
      client = connected
      client.once("error", onError)
      client.query(text, params as Array<unknown>, (error: Error | null, result: pg.QueryResult | ReadonlyArray<pg.QueryResult>) => {
        release()
        if (error) return resume(Effect.fail(new SqlError({ cause: error, message: "Failed to execute statement" })))
        resume(Effect.succeed(Array.isArray(result) ? result.map((r) => r.rows ?? []) : (result as pg.QueryResult).rows ?? []))
      })
    })
    return Effect.suspend(() => {
      if (client === undefined || done) {
        release()
        return Effect.void
      }
      return Effect.ensuring(cancelBackend(pool, client), Effect.sync(() => release()))
    })
  })

/**
 * The rows of `statement`, read straight from the pool when nothing needs
 * @effect/sql's own way of running it: no transaction open in the fiber (its
 * statements must go to its connection), tracing off (with it on, the
 * statement's `sql.execute` span is wanted) and no statement transformer
 * set (the bench's capture). Otherwise the statement runs as it always does.
 *
 * Why: around each statement @effect/sql opens and closes a scope and a span
 * even when the span records nothing; under load that was about 125 µs of
 * CPU per statement, as much as pg's own work for a small one, on every
 * statement of every request. The text and parameters sent are the
 * statement's own (`compile`), so the database sees no difference.
 */
export const direct = <A extends object>(
  sql: SqlClient.SqlClient,
  statement: Statement.Statement<A>
): Effect.Effect<ReadonlyArray<A>, SqlError> => {
  const pool = pools.get(sql)
  if (pool === undefined) return statement
  return Effect.withFiberRuntime((fiber) => {
    if (
      fiber.getFiberRef(FiberRef.currentTracerEnabled) ||
      fiber.getFiberRef(Statement.currentTransformer)._tag === "Some" ||
      Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)._tag === "Some"
    ) {
      return statement
    }
    const [text, params] = statement.compile()
    return onPool(pool, text, params)
  })
}
