import { Config, Duration, Option, Redacted } from "effect"

/** The environment variables the database layer reads (the README lists these). */
const DatabaseEnv = {
  url: "DATABASE_URL",
  dataDir: "DATA_DIR",
  poolMax: "DB_POOL_MAX",
  connectTimeout: "DB_CONNECT_TIMEOUT_MS",
  idleTimeout: "DB_IDLE_TIMEOUT_MS",
  connectionTTL: "DB_CONNECTION_TTL_MS",
  statementTimeout: "DB_STATEMENT_TIMEOUT_MS",
  startTimeout: "DB_START_TIMEOUT_MS",
  preparedStatements: "DB_PREPARED_STATEMENTS"
} as const

/** How to reach the database and how the connection pool behaves. */
export interface PoolSettings {
  readonly poolMax: number
  readonly connectTimeout: Duration.Duration
  readonly idleTimeout: Duration.Duration
  /** Every connection is replaced after this long, healthy or not (the backstop of pitfall 14). */
  readonly connectionTTL: Duration.Duration
  readonly statementTimeout: Duration.Duration
  /**
   * Statements each connection keeps prepared (prepared-statements.ts);
   * absent or 0: none. Never on the embedded database.
   */
  readonly preparedStatements?: number
}

export interface DatabaseConfig extends PoolSettings {
  /** PostgreSQL to use; none means the embedded PGlite in `dataDir`. */
  readonly url: Option.Option<Redacted.Redacted>
  /** The PGlite data directory (`memory://` keeps it in memory). */
  readonly dataDir: string
  /** How long start-up keeps trying to reach the database before it gives up. */
  readonly startTimeout: Duration.Duration
}

/** Enough for every hot statement of the service; each costs the server a few kB per connection. */
export const DEFAULT_PREPARED_STATEMENTS = 200

const positiveInteger = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a positive integer`, validation: (n) => n > 0 }),
    Config.withDefault(fallback)
  )

const nonNegativeInteger = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be 0 or a positive integer`, validation: (n) => n >= 0 }),
    Config.withDefault(fallback)
  )

const millis = (name: string, fallback: number) => positiveInteger(name, fallback).pipe(Config.map(Duration.millis))

/** Reads `DatabaseEnv`; an empty DATABASE_URL counts as unset, so `DATABASE_URL=` selects the embedded database. */
export const DatabaseConfig: Config.Config<DatabaseConfig> = Config.all({
  url: Config.option(Config.redacted(DatabaseEnv.url)).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  ),
  dataDir: Config.string(DatabaseEnv.dataDir).pipe(Config.withDefault("./.data")),
  poolMax: positiveInteger(DatabaseEnv.poolMax, 10),
  connectTimeout: millis(DatabaseEnv.connectTimeout, 5_000),
  idleTimeout: millis(DatabaseEnv.idleTimeout, 30_000),
  connectionTTL: millis(DatabaseEnv.connectionTTL, 300_000),
  statementTimeout: millis(DatabaseEnv.statementTimeout, 15_000),
  startTimeout: millis(DatabaseEnv.startTimeout, 30_000),
  preparedStatements: nonNegativeInteger(DatabaseEnv.preparedStatements, DEFAULT_PREPARED_STATEMENTS)
})
