import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { type ConfigError, Context, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { DatabaseConfig, type PoolSettings } from "./config.js"
import { startEmbedded } from "./embedded.js"
import type { EmbeddedDatabaseError } from "./embedded-error.js"
import { type DatabaseUnreachableError, retryFirstConnection } from "./first-connection.js"
import { watchdogSocket } from "./socket-watchdog.js"

// Past the statement timeout the server has answered (its own cancellation
// is quick), so silence after this margin means the connection is dead. The
// query fails at the margin, and the watchdog, whose clock starts no earlier
// than the query's, drops the connection (and the pool's idle ones) within
// one of its ticks after, mostly before the pool hands the dead one out again.
const QUERY_GRACE = Duration.seconds(1)

/**
 * The URL with the session settings PgClientConfig has no field for.
 * `statement_timeout` goes to the server in the startup packet (no extra
 * round trip, and RESET/DISCARD ALL return to it). `query_timeout` is `pg`'s
 * client-side timer: a query fails instead of hanging when the network or the
 * server is gone, and on PGlite, which ignores statement_timeout.
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
      parsed.searchParams.set("query_timeout", String(statementMs + Duration.toMillis(QUERY_GRACE)))
      parsed.searchParams.set("options", "-c jit=off")
      return Redacted.make(parsed.toString())
    },
    catch: (cause) => new SqlError({ cause, message: "The database URL is not a valid URL" })
  })

/**
 * The one PgClient every query path uses (real PostgreSQL and embedded alike).
 * No name transforms: queries alias their columns (DESIGN pitfall 15).
 */
export const makePgClient = (
  url: Redacted.Redacted,
  settings: PoolSettings
): Effect.Effect<PgClient.PgClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.flatMap(sessionUrl(url, settings.statementTimeout), (withSession) =>
    PgClient.make({
      url: withSession,
      applicationName: "tks",
      maxConnections: settings.poolMax,
      connectTimeout: settings.connectTimeout,
      idleTimeout: settings.idleTimeout,
      connectionTTL: settings.connectionTTL,
      stream: watchdogSocket(Duration.toMillis(Duration.sum(settings.statementTimeout, QUERY_GRACE)))
    }))

export const clientContext = (client: PgClient.PgClient) =>
  Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client))

/** A PgClient layer for a known URL. */
export const pgClientLayer = (
  url: Redacted.Redacted,
  settings: PoolSettings
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  Layer.scopedContext(Effect.map(makePgClient(url, settings), clientContext)).pipe(Layer.provide(Reactivity.layer))

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
    return clientContext(yield* retryFirstConnection(url, config.startTimeout, makePgClient(url, config)))
  })
).pipe(Layer.provide(Reactivity.layer))
