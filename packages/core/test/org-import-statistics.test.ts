import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { demoFixture } from "../src/demo/fixture.js"
import { FixtureImporter } from "../src/org-import/importer.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

layer(TestLayer)("statistics after an import", (it) => {
  it.effect("when the import returns, every table it wrote is analyzed (row counts known) and vacuumed (pages all-visible)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const importer = yield* FixtureImporter
      yield* importer.importOrganization(demoFixture())
      const written = [
        "organizations", "users", "teams", "team_members", "invitations", "categories", "spaces", "space_teams", "topics",
        "items", "lessons", "lesson_teams", "company_roles", "advancement_tiers", "role_members", "curriculum_entries",
        "third_parties", "duties", "findings", "org_chart_verifications", "directory_connections", "directory_events",
        "access_tokens"
      ]
      const tables = yield* sql<{ table: string; reltuples: number; relpages: number; relallvisible: number }>`
        SELECT relname AS table, reltuples::int AS reltuples, relpages, relallvisible
        FROM pg_class WHERE relkind = 'r' AND relname IN ${sql.in(written)} ORDER BY relname`
      expect(tables.map((table) => table.table)).toEqual([...written].sort())
      for (const table of tables) {
        const [rows] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table.table)}`
        expect({ table: table.table, reltuples: table.reltuples }).toEqual({ table: table.table, reltuples: rows?.n })
        expect({ table: table.table, allVisible: table.relallvisible }).toEqual({ table: table.table, allVisible: table.relpages })
        expect(table.relpages).toBeGreaterThan(0)
      }
    }))
})
