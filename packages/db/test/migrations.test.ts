import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { type Migrations, MIGRATIONS_TABLE, runMigrations } from "../src/migrate.js"
import { migrations as schemaMigrations } from "../src/migrations/index.js"
import { TestDatabaseLive } from "../src/test-database.js"
import { freshDatabase } from "./support/fresh-database.js"

const applied = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly id: number; readonly name: string }>`
    SELECT migration_id AS id, name FROM ${sql(MIGRATIONS_TABLE)} ORDER BY migration_id`
  return rows.map((row) => `${String(row.id).padStart(4, "0")}_${row.name}`)
})

layer(TestDatabaseLive, { excludeTestServices: true })("the schema migrations", (it) => {
  it.effect("are all applied by TestDatabaseLive, and a re-run applies nothing", () =>
    Effect.gen(function*() {
      expect(yield* applied).toEqual(Object.keys(schemaMigrations).sort())
      expect(yield* runMigrations()).toEqual([])
      expect(yield* applied).toEqual(Object.keys(schemaMigrations).sort())
    }))
})

const table = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE ${sql(name)} (id integer PRIMARY KEY)`)

const first: Migrations = {
  "0001_first": table("first_table"),
  "0002_second": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO first_table VALUES (1), (2)`)
}

// A brand-new database without even the migrations table.
const Fresh = Layer.scopedContext(freshDatabase())

layer(Fresh, { excludeTestServices: true })("runMigrations on an empty database", (it) => {
  it.effect("two instances starting together both succeed and each migration runs once", () =>
    Effect.gen(function*() {
      const [a, b] = yield* Effect.all([runMigrations(first), runMigrations(first)], { concurrency: 2 })
      expect([...a, ...b].map(([id]) => id).sort()).toEqual([1, 2])
      expect(yield* applied).toEqual(["0001_first", "0002_second"])
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql`SELECT id FROM first_table ORDER BY id`).toEqual([{ id: 1 }, { id: 2 }])
    }))

  it.effect("a re-run is a no-op and a new migration is applied alone", () =>
    Effect.gen(function*() {
      expect(yield* runMigrations(first)).toEqual([])
      const next = { ...first, "0003_third": table("third_table") }
      expect(yield* runMigrations(next)).toEqual([[3, "third"]])
      expect(yield* applied).toEqual(["0001_first", "0002_second", "0003_third"])
    }))

  it.effect("a key that is not <id>_<name> is refused rather than skipped", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(runMigrations({ ...first, "fourth": table("fourth_table") }))
      expect(Either.isLeft(result) && result.left._tag).toBe("MigrationError")
    }))

  it.effect("a failing migration is not recorded and leaves nothing behind", () =>
    Effect.gen(function*() {
      const broken = {
        ...first,
        "0003_third": table("third_table"),
        "0004_broken": Effect.zipRight(table("half_done"), Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT nope`))
      }
      const result = yield* Effect.exit(runMigrations(broken))
      expect(result._tag).toBe("Failure")
      expect(yield* applied).toEqual(["0001_first", "0002_second", "0003_third"])
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql`SELECT to_regclass('half_done') AS t`).toEqual([{ t: null }])
    }))
})
