import { randomUUID } from "node:crypto"
import { Reactivity } from "@effect/experimental"
import type { SqlClient } from "@effect/sql"
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg"
import { Config, type ConfigError, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { clientContext, embeddedConnectionLimit, makePgClient } from "./client.js"
import { DEFAULT_PREPARED_STATEMENTS, type PoolSettings } from "./config.js"
import { IN_MEMORY, servePGlite } from "./embedded.js"
import type { EmbeddedDatabaseError } from "./embedded-error.js"
import { type Migrations, runMigrations } from "./migrate.js"
import { migrations as schemaMigrations } from "./migrations/index.js"
import { imagePath, openFreshPGlite, openImage, saveImage } from "./pglite-image.js"
import { schemaKey } from "./schema-key.js"

const TEST_DATABASE_ENV = "TEST_DATABASE_URL"

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

const createDatabase = (admin: Redacted.Redacted, template?: string) =>
  Effect.gen(function*() {
    // Hex only, so it is a safe identifier.
    const name = `tks_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`
    const url = yield* withUrlDatabase(admin, name)
    yield* Effect.acquireRelease(
      onAdmin(admin, (sql) =>
        template === undefined
          ? sql`CREATE DATABASE ${sql(name)}`
          : sql`CREATE DATABASE ${sql(name)} TEMPLATE ${sql(template)}`),
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
      onSome: (url) => createDatabase(url),
      onNone: () =>
        openFreshPGlite.pipe(
          Effect.flatMap((db) => servePGlite(db, { dataDir: IN_MEMORY, maxConnections: connections })),
          Effect.map((embedded) => embedded.url)
        )
    })
  })

// Applies the schema's migrations over a short-lived client of its own.
const migrateAt = (url: Redacted.Redacted) =>
  makePgClient(url, { ...TEST_POOL, poolMax: 1 }).pipe(
    Effect.flatMap((client) => runMigrations(schemaMigrations).pipe(Effect.provide(clientContext(client)))),
    Effect.scoped,
    Effect.provide(Reactivity.layer)
  )

/**
 * The migrated template on TEST_DATABASE_URL's server, built once per schema
 * (its name carries the schema key) under an advisory lock, so test files
 * starting together build it once; it is published by a rename, so nobody
 * copies a half-migrated one.
 */
const migratedTemplate = (admin: Redacted.Redacted) =>
  Effect.gen(function*() {
    const name = `tks_template_${yield* schemaKey}`
    // A session lock on the admin client's only connection; CREATE DATABASE
    // cannot run in a transaction, so the work runs on other admin clients.
    yield* onAdmin(admin, (sql) =>
      Effect.acquireUseRelease(
        sql`SELECT pg_advisory_lock(hashtext(${name}))`,
        () =>
          Effect.gen(function*() {
            const present = yield* sql`SELECT 1 FROM pg_database WHERE datname = ${name}`
            if (present.length > 0) return
            const building = `${name}_${randomUUID().replaceAll("-", "").slice(0, 8)}`
            yield* onAdmin(admin, (other) => other`CREATE DATABASE ${other(building)}`)
            yield* migrateAt(yield* withUrlDatabase(admin, building))
            yield* onAdmin(admin, (other) => other`ALTER DATABASE ${other(building)} RENAME TO ${other(name)}`)
          }),
        () => sql`SELECT pg_advisory_unlock(hashtext(${name}))`.pipe(Effect.ignore)
      ))
    return name
  })

const createMigratedDatabase = (admin: Redacted.Redacted) =>
  Effect.gen(function*() {
    const template = yield* migratedTemplate(admin)
    return yield* createDatabase(admin, template)
  })

/**
 * An in-memory PGlite holding the migrated schema, from a cached image of it
 * (built and saved by the first test file that finds none).
 */
const migratedEmbedded = (connections: number) =>
  Effect.gen(function*() {
    const path = yield* imagePath(`schema-${yield* schemaKey}`)
    const cached = yield* openImage(path)
    if (cached !== undefined) {
      return (yield* servePGlite(cached, { dataDir: IN_MEMORY, maxConnections: connections })).url
    }
    const db = yield* openFreshPGlite
    const served = yield* servePGlite(db, { dataDir: IN_MEMORY, maxConnections: connections })
    yield* migrateAt(served.url)
    yield* saveImage(db, path)
    return served.url
  })

/**
 * Like provisionTestDatabase, with the schema's migrations already applied:
 * a copy of a migrated template database on TEST_DATABASE_URL's server, or an
 * embedded PGlite opened from a migrated image. Why: applying the migrations
 * was most of each test file's start (3 s on PostgreSQL, far more embedded
 * under load), and every test file starts its own database.
 */
export const provisionMigratedTestDatabase = (
  connections: number
): Effect.Effect<Redacted.Redacted, ProvisionError | MigrationError, Scope.Scope> =>
  Effect.gen(function*() {
    const admin = yield* Config.option(Config.redacted(TEST_DATABASE_ENV))
    return yield* Option.match(Option.filter(admin, (url) => Redacted.value(url).trim() !== ""), {
      onSome: createMigratedDatabase,
      onNone: () => migratedEmbedded(connections)
    })
  })

interface TestDatabaseOptions {
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
      // As production runs: statements prepared on a PostgreSQL server (the pool leaves PGlite alone).
      const settings: PoolSettings = { ...TEST_POOL, preparedStatements: DEFAULT_PREPARED_STATEMENTS, ...options.pool }
      const connections = embeddedConnectionLimit(settings.poolMax)
      const url = yield* (options.migrations === undefined
        ? provisionMigratedTestDatabase(connections)
        : provisionTestDatabase(connections))
      const client = yield* makePgClient(url, settings)
      const context = clientContext(client)
      yield* runMigrations(options.migrations ?? schemaMigrations).pipe(Effect.provide(context))
      return context
    })
  ).pipe(Layer.provide(Reactivity.layer))

export const TestDatabaseLive = testDatabaseLayer()
