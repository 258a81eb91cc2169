import type { SqlClient } from "@effect/sql"
import { Effect, type Scope } from "effect"
import type pg from "pg"
import { poolOf } from "./direct.js"

/** The connection pool as it is at one moment (pg-pool's own counts). */
interface PoolStatistics {
  /** Connections open or opening. */
  readonly total: number
  /** Open connections nobody holds. */
  readonly idle: number
  /** Callers waiting for a connection. */
  readonly waiting: number
  /** The most connections the pool opens (DB_POOL_MAX). */
  readonly max: number
}

/**
 * A reader of the pool's statistics, or undefined for a client this package
 * did not make. The embedded database has the same pool: its connections go
 * to PGlite's socket server, which runs one statement at a time.
 */
export const poolStatistics = (sql: SqlClient.SqlClient): (() => PoolStatistics) | undefined => {
  const pool = poolOf(sql)
  if (pool === undefined) return undefined
  return () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 })
}

type Connect = (callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) => unknown

/**
 * Calls `observe` with the seconds each successful connection request waited
 * for its connection, for the scope: every statement takes its connection
 * through `connect` (@effect/sql-pg, `direct`, and pg's own `pool.query`).
 * Installed only while someone measures, so an unmeasured pool pays nothing.
 */
export const timeConnectionWaits = (
  sql: SqlClient.SqlClient,
  observe: (seconds: number) => void
): Effect.Effect<void, never, Scope.Scope> => {
  const pool = poolOf(sql)
  if (pool === undefined) return Effect.void
  return Effect.acquireRelease(
    Effect.sync(() => {
      const connect = pool.connect as Connect
      const timed: Connect = function(this: pg.Pool, callback) {
        const started = performance.now()
        const waited = () => observe((performance.now() - started) / 1000)
        if (callback === undefined) {
          return (connect.call(this) as Promise<pg.PoolClient>).then((client) => {
            waited()
            return client
          })
        }
        return connect.call(this, (error, client, done) => {
          if (error === undefined || error === null) waited()
          callback(error, client, done)
        })
      }
      Object.defineProperty(pool, "connect", { value: timed, configurable: true, writable: true })
    }),
    // The prototype's method again.
    () => Effect.sync(() => Reflect.deleteProperty(pool, "connect"))
  )
}
