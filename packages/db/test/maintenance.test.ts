import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { EmbeddedMaintenanceLive } from "@tks/db/maintenance"
import { TestDatabaseLive } from "@tks/db/test-database"

const reltuples = (table: string) =>
  SqlClient.SqlClient.pipe(
    Effect.flatMap((sql) => sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = ${table}`),
    Effect.map((rows) => rows[0]?.n ?? -1)
  )

layer(TestDatabaseLive, { excludeTestServices: true })("embedded database maintenance", (it) => {
  it.effect("on the embedded database, starting the service gathers planner statistics (PGlite has no autovacuum)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO organizations (id, name) VALUES ('org_m', 'Maintained')`
      yield* sql`INSERT INTO users (org_id, id, name, email, org_role)
                 SELECT 'org_m', 'usr_' || g, 'Person ' || g, 'p' || g || '@m.test', 'viewer' FROM generate_series(1, 40) g`
      // Never analyzed: PostgreSQL reports -1 (or 0 on older versions).
      expect(yield* reltuples("users")).toBeLessThan(40)
      const embedded = Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", "memory://"]])))
      yield* Effect.scoped(
        Layer.build(EmbeddedMaintenanceLive.pipe(Layer.provide(embedded))).pipe(Effect.zipRight(Effect.sleep("1 second")))
      )
      expect(yield* reltuples("users")).toBe(40)
    }))
})
