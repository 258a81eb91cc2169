import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { type ConfigError, Context, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import pg from "pg"
import { DatabaseConfig, type PoolSettings } from "./config.js"
import { registerPool } from "./direct.js"
import { startEmbedded } from "./embedded.js"
import type { EmbeddedDatabaseError } from "./embedded-error.js"
import { type DatabaseUnreachableError, retryFirstConnection } from "./first-connection.js"
import { preparingClient, type PreparingSwitch, servesNamedStatements, trimOnRelease } from "./prepared-statements.js"
import { watchdogSocket } from "./socket-watchdog.js"

// Past the statement timeout the server has answered (its own cancellation
// is quick), so silence after this margin means the connection is dead: the
// socket watchdog then fails the query and drops the connection, and the
// pool's idle ones with it (a network that swallowed one swallowed them too).
const QUERY_GRACE = Duration.seconds(1)

// pg's query timeout comes after the watchdog's deadline (its ticks included),
// so on a silent connection the watchdog is the one that fails the query: pg's
// timer fails only the query, leaves it on the connection, and tells nobody
// about the idle ones. It stays the backstop for what the watchdog cannot see
// (an answer that trickles and never ends; under TLS, a write and a read that
// fell in one tick), and retireAbandoned below keeps the connection it gave
// up on out of the pool.
const QUERY_TIMEOUT_AFTER_WATCHDOG = Duration.seconds(1)

/**
 * The URL with the session settings PgClientConfig has no field for.
 * `statement_timeout` goes to the server in the startup packet (no extra
 * round trip, and RESET/DISCARD ALL return to it). `query_timeout` is `pg`'s
 * client-side timer, the backstop after the socket watchdog: a query fails
 * instead of hanging when the network or the server is gone, and on PGlite,
 * which ignores statement_timeout.
 * `jit=off`: our statements are short OLTP reads; a recursive CTE whose row
 * estimate grows with the graph crossed the JIT cost threshold and spent
 * 320 ms compiling for a 0.7 ms query (measured on content usage).
 */
export const sessionUrl = (url: Redacted.Redacted, statementTimeout: Duration.Duration) =>
  Effect.try({
    try: () => {
      const parsed = new URL(Redacted.value(url))
      const statementMs = Duration.toMillis(statementTimeout)
      parsed.searchParams.set("statement_timeout", String(statementMs))
      parsed.searchParams.set("query_timeout", String(statementMs + Duration.toMillis(Duration.sum(QUERY_GRACE, QUERY_TIMEOUT_AFTER_WATCHDOG))))
      parsed.searchParams.set("options", "-c jit=off")
      return Redacted.make(parsed.toString())
    },
    catch: (cause) => new SqlError({ cause, message: "The database URL is not a valid URL" })
  })

// pg's own record of the query a client is running; no public API says it.
type WithActiveQuery = { readonly _getActiveQuery: () => unknown }

const hasQueryInFlight = (client: pg.PoolClient) => (client as unknown as WithActiveQuery)._getActiveQuery() != null

/**
 * Ends a client that is released with its query still outstanding, before
 * the pool can hand it out again (pg-pool drops an ending client right after
 * this "release" event).
 *
 * Why: sql-pg 0.53 releases a connection as healthy when pg gave up waiting
 * for its query (query_timeout, which calls back but leaves the query on the
 * connection: node-postgres #3399) or when the fiber running the query was
 * interrupted (the request deadline, the readiness probe's timeout; sql-pg's
 * cancellation is best-effort). On a network that lost the connection, every
 * later query on it waits behind the lost one, and the next request to draw it
 * from the pool answers 503 on a healthy database: after a black hole, a
 * background query's connection came back to the pool up to a watchdog tick
 * before the watchdog dropped it, and the request that drew it got "No answer
 * from the database" (pitfall 14). A query that finished (rows or a database
 * error) has no query in flight when released: it stays. An interrupted
 * query that the server did cancel costs a reconnect.
 */
const retireAbandoned = (error: Error | undefined, client: pg.PoolClient) => {
  if (error === undefined && hasQueryInFlight(client)) {
    // Destroys the socket (the query is in flight) and marks the client ending.
    client.end().catch(() => {})
  }
}

/**
 * The pool sql-pg's PgClient.make would build, plus `retireAbandoned`; ended
 * with the scope. Fails as make does when its first query fails or takes longer
 * than the connect timeout (first-connection.ts reads the cause).
 */
const makePool = (url: Redacted.Redacted, settings: PoolSettings) =>
  Effect.gen(function*() {
    if (typeof Reflect.get(pg.Client.prototype, "_getActiveQuery") !== "function") {
      return yield* Effect.die(new Error("pg changed: Client has no _getActiveQuery to tell a connection's lost query"))
    }
    const prepared = settings.preparedStatements ?? 0
    const preparing: PreparingSwitch = { enabled: false }
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({
          ...(prepared > 0 ? { Client: preparingClient(prepared, preparing) } : {}),
          connectionString: Redacted.value(url),
          application_name: "tks",
          max: settings.poolMax,
          connectionTimeoutMillis: Duration.toMillis(settings.connectTimeout),
          idleTimeoutMillis: Duration.toMillis(settings.idleTimeout),
          maxLifetimeSeconds: Duration.toSeconds(settings.connectionTTL),
          stream: watchdogSocket(Duration.toMillis(Duration.sum(settings.statementTimeout, QUERY_GRACE)))
        })
        // A client that fails while idle is dropped by the pool; the next query reports it.
        pool.on("error", () => {})
        pool.on("release", retireAbandoned)
        if (prepared > 0) pool.on("release", trimOnRelease)
        return pool
      }),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    )
    yield* Effect.tryPromise({
      try: () =>
        pool.query<{ version: string }>("SELECT version() AS version").then((result) => {
          preparing.enabled = servesNamedStatements(result.rows[0]?.version ?? "")
        }),
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }).pipe(
      Effect.timeoutFail({
        duration: settings.connectTimeout,
        onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
      })
    )
    return pool
  })

/**
 * The one PgClient every query path uses (real PostgreSQL and embedded alike).
 * No name transforms: queries alias their columns (an
 * un-memoised snake-to-camel transform cost 70-90 µs per 50-row page).
 */
export const makePgClient = (
  url: Redacted.Redacted,
  settings: PoolSettings
): Effect.Effect<PgClient.PgClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.flatMap(sessionUrl(url, settings.statementTimeout), (withSession) => {
    let pool: pg.Pool | undefined
    const acquire = Effect.tap(makePool(withSession, settings), (made) => {
      pool = made
    })
    // Statements run `direct` (./direct.ts) go to the same pool.
    return Effect.tap(PgClient.fromPool({ acquire, applicationName: "tks" }), (client) => {
      if (pool !== undefined) registerPool(client, pool)
    })
  })

export const clientContext = (client: PgClient.PgClient) =>
  Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client))

/** Socket connections the embedded server accepts: the pool, a LISTEN client, and sockets still closing. */
export const embeddedConnectionLimit = (poolMax: number) => 2 * poolMax + 1

/**
 * PgClient and SqlClient from `DatabaseConfig`: DATABASE_URL when set,
 * otherwise the embedded PGlite in DATA_DIR. The first connection is retried
 * for DB_START_TIMEOUT_MS (DatabaseUnreachableError after that). One scope
 * owns both, so on shutdown the pool closes before the socket server and
 * PGlite.
 */
export const DatabaseLive: Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient,
  ConfigError.ConfigError | SqlError | EmbeddedDatabaseError | DatabaseUnreachableError
> = Layer.scopedContext(
  Effect.gen(function*() {
    const config = yield* DatabaseConfig
    const url = yield* Option.match(config.url, {
      onSome: Effect.succeed,
      onNone: () =>
        startEmbedded({ dataDir: config.dataDir, maxConnections: embeddedConnectionLimit(config.poolMax) }).pipe(
          Effect.map((embedded) => embedded.url)
        )
    })
    // A URL that does not parse fails here, at once, not after the retries.
    yield* sessionUrl(url, config.statementTimeout)
    // On PGlite the pool prepares nothing: its first query tells it which server it is on.
    return clientContext(yield* retryFirstConnection(url, config.startTimeout, makePgClient(url, config)))
  })
).pipe(Layer.provide(Reactivity.layer))
