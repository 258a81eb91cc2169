import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { rawAt } from "../test/support/http.js"
import { type ServerProcess, startServerProcess, stop, waitReady } from "../test/support/server-process.js"
import { SharedDatabaseUrl } from "../test/support/shared-database.js"

/**
 * Two real server processes on the test's database (PGlite served over its
 * socket, or a fresh PostgreSQL database with TEST_DATABASE_URL): no job
 * workers, so nothing but the requests the test sends touches the data.
 */
export class TwoServers extends Context.Tag("@tks/server/reliability/TwoServers")<TwoServers, {
  readonly a: ServerProcess
  readonly b: ServerProcess
  /** The first server for even `i`, the second for odd: requests alternate between them. */
  readonly alternate: (i: number) => ServerProcess
}>() {}

export const twoServers = (env: Record<string, string>) =>
  Layer.scoped(
    TwoServers,
    Effect.gen(function*() {
      const url = yield* SharedDatabaseUrl
      const start = Effect.gen(function*() {
        const server = yield* startServerProcess({
          DATABASE_URL: url,
          SEED_DEMO: "false",
          WORKERS: "0",
          DB_POOL_MAX: "8",
          LOG_LEVEL: "Warning",
          // Counting is what is under test, not speed: on a machine busy with both servers and the
          // database, a request waits for a pooled connection and answers late rather than 503.
          REQUEST_TIMEOUT_MS: "120000",
          DB_CONNECT_TIMEOUT_MS: "60000",
          DB_STATEMENT_TIMEOUT_MS: "60000",
          ...env
        })
        expect(yield* waitReady(server), server.stderr()).toBe(true)
        // A clean stop, so a server that failed on the way shows up here.
        yield* Effect.addFinalizer(() => stop(server))
        return server
      })
      const [a, b] = yield* Effect.all([start, start], { concurrency: 2 })
      return { a: a!, b: b!, alternate: (i: number) => (i % 2 === 0 ? a! : b!) }
    })
  )

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly json: any
}

/** One HTTP request to a server process, as the holder of `token`. */
export const call = (server: ServerProcess, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
  rawAt(`http://127.0.0.1:${server.port}`, method, path, {
    token,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers
  }).pipe(Effect.map(({ headers, json, status }): Answer => ({ status, headers, json })))

/** Every request at once, the i-th to `server(i)`. */
export const burst = <A>(count: number, request: (i: number) => Effect.Effect<A>) =>
  Effect.all(Array.from({ length: count }, (_, i) => request(i)), { concurrency: "unbounded" })

const databaseMinute = SqlClient.SqlClient.pipe(
  Effect.flatMap((sql) => sql<{ ms: number }>`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`),
  Effect.map((rows) => rows[0]!.ms),
  Effect.orDie
)

/** The most a burst may take; it starts no later than this long before the minute ends. */
const ROOM = Duration.seconds(40)

/**
 * Runs `attempt` (which takes fresh tokens, so it starts from empty counts)
 * inside one minute of the database clock, which is what the limits count
 * by: it starts with at least 40 s left in the minute, and when the minute
 * turned during it anyway (a very slow machine), its outcome is thrown away
 * and it runs again in the next minute. The outcome never depends on where
 * in the minute the requests fell.
 */
export const inOneMinute = <A, E, R>(attempt: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    for (let tries = 1; ; tries++) {
      const now = yield* databaseMinute
      const left = 60_000 - (now % 60_000)
      if (left < Duration.toMillis(ROOM)) yield* Effect.sleep(Duration.millis(left + 200))
      const startedIn = Math.floor((yield* databaseMinute) / 60_000)
      const outcome = yield* attempt
      const endedIn = Math.floor((yield* databaseMinute) / 60_000)
      if (startedIn === endedIn) return outcome
      if (tries === 3) return yield* Effect.dieMessage("Three bursts in a row each took past the end of a minute")
    }
  })
