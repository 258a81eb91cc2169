import { randomUUID } from "node:crypto"
import { Reactivity } from "@effect/experimental"
import type { SqlClient } from "@effect/sql"
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg"
import { Config, type ConfigError, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { clientContext, embeddedConnectionLimit, makePgClient } from "./client.js"
import type { PoolSettings } from "./config.js"
import { IN_MEMORY, servePGlite } from "./embedded.js"
import type { EmbeddedDatabaseError } from "./embedded-error.js"
import { type Migrations, runMigrations } from "./migrate.js"
import { migrations as schemaMigrations } from "./migrations/index.js"
import { openFreshPGlite } from "./pglite-image.js"

export const TEST_DATABASE_ENV = "TEST_DATABASE_URL"

export const TEST_POOL: PoolSettings = {
  poolMax: 5,
  connectTimeout: Duration.seconds(5),
  idleTimeout: Duration.seconds(30),
  connectionTTL: Duration.minutes(5),
  statementTimeout: Duration.seconds(15)
}

type ProvisionError = SqlError | EmbeddedDatabaseError | ConfigError.ConfigError

const withUrlDatabase = (url: Redacted.Redacted, database: string) =>
  Effect.try({
    try: () => {
      const parsed = new URL(Redacted.value(url))
      parsed.pathname = `/${database}`
      return Redacted.make(parsed.toString())
    },
    catch: (cause) => new SqlError({ cause, message: `${TEST_DATABASE_ENV} is not a valid URL` })
  })

// A short-lived client on the server's admin database, for CREATE/DROP DATABASE.
const onAdmin = <A, E>(admin: Redacted.Redacted, use: (sql: PgClient.PgClient) => Effect.Effect<A, E>) =>
  makePgClient(admin, { ...TEST_POOL, poolMax: 1 }).pipe(
    Effect.flatMap(use),
    Effect.scoped,
    Effect.provide(Reactivity.layer)
  )

const createDatabase = (admin: Redacted.Redacted) =>
  Effect.gen(function*() {
    // Hex only, so it is a safe identifier.
    const name = `tks_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`
    const url = yield* withUrlDatabase(admin, name)
    yield* Effect.acquireRelease(
      onAdmin(admin, (sql) => sql`CREATE DATABASE ${sql(name)}`),
      () =>
        onAdmin(admin, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning(`Could not drop test database ${name}`, cause))
        )
    )
    return url
  })

/**
 * A brand-new, empty database for the current scope, as a URL: a fresh
 * `tks_test_<random>` database on TEST_DATABASE_URL's server (dropped WITH
 * (FORCE) when the scope closes), or else an in-memory PGlite behind
 * pglite-socket accepting `connections` sockets.
 */
export const provisionTestDatabase = (
  connections: number
): Effect.Effect<Redacted.Redacted, ProvisionError, Scope.Scope> =>
  Effect.gen(function*() {
    const admin = yield* Config.option(Config.redacted(TEST_DATABASE_ENV))
    return yield* Option.match(Option.filter(admin, (url) => Redacted.value(url).trim() !== ""), {
      onSome: createDatabase,
      onNone: () =>
        openFreshPGlite.pipe(
          Effect.flatMap((db) => servePGlite(db, { dataDir: IN_MEMORY, maxConnections: connections })),
          Effect.map((embedded) => embedded.url)
        )
    })
  })

export interface TestDatabaseOptions {
  /** Pool settings beyond TEST_POOL (e.g. `{ poolMax: 20 }`). */
  readonly pool?: Partial<PoolSettings>
  /** Defaults to the real schema. */
  readonly migrations?: Migrations
}

/**
 * PgClient and SqlClient on a brand-new database with the migrations applied;
 * each layer build (each test file) gets its own database.
 */
export const testDatabaseLayer = (
  options: TestDatabaseOptions = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, ProvisionError | MigrationError> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const settings: PoolSettings = { ...TEST_POOL, ...options.pool }
      const url = yield* provisionTestDatabase(embeddedConnectionLimit(settings.poolMax))
      const client = yield* makePgClient(url, settings)
      const context = clientContext(client)
      yield* runMigrations(options.migrations ?? schemaMigrations).pipe(Effect.provide(context))
      return context
    })
  ).pipe(Layer.provide(Reactivity.layer))

/** The same with a given pool size. */
export const testDatabaseWithPool = (poolMax: number) => testDatabaseLayer({ pool: { poolMax } })

export const TestDatabaseLive = testDatabaseLayer()
