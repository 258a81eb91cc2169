import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import { migrations as schemaMigrations } from "./migrations/index.js"

export type Migrations = Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>

export const MIGRATIONS_TABLE = "effect_sql_migrations"

// PgMigrator is this same Migrator plus a pg_dump hook for `schemaDirectory`;
// we never dump, and the hook's FileSystem/Path/CommandExecutor requirement
// would drag a platform layer into every consumer.
const migrate = Migrator.make({})

/**
 * The Migrator creates its table with a check-then-CREATE, which fails on one
 * of two instances starting together; an advisory lock held while creating
 * the same table (IF NOT EXISTS) serialises that first step. The rest is
 * serialised by the Migrator's own LOCK TABLE.
 */
const ensureMigrationsTable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.zipRight(
      sql`SELECT pg_advisory_xact_lock(hashtext(${MIGRATIONS_TABLE}))`,
      sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
        migration_id integer PRIMARY KEY,
        created_at timestamp with time zone NOT NULL DEFAULT now(),
        name text NOT NULL
      )`
    )
  )
})

// fromRecord silently skips keys that are not `<id>_<name>`; a typo must not skip a migration.
const checkKeys = (records: Migrations) => {
  const bad = Object.keys(records).filter((key) => !/^\d+_.+$/.test(key))
  return bad.length === 0 ? Effect.void : Effect.fail(
    new Migrator.MigrationError({ reason: "bad-state", message: `Migration keys must be <id>_<name>: ${bad.join(", ")}` })
  )
}

/** Applies the pending migrations (forward only) and returns the ones applied. */
export const runMigrations = (
  records: Migrations = schemaMigrations
): Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    yield* checkKeys(records)
    yield* ensureMigrationsTable
    const applied = yield* migrate({ loader: Migrator.fromRecord(records), table: MIGRATIONS_TABLE })
    if (applied.length > 0) {
      yield* Effect.logInfo("Applied database migrations").pipe(
        Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`).join(", "))
      )
    }
    return applied
  })

/** Runs the migrations when built; for the composition root, before anything serves. */
const migrationsLayer = (
  records: Migrations = schemaMigrations
): Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =>
  Layer.effectDiscard(runMigrations(records))

export const MigrationsLive = migrationsLayer()
