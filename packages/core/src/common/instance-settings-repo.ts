import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Settings this installation keeps for all its instances (one row per key). */
export class InstanceSettingsRepo extends Effect.Service<InstanceSettingsRepo>()("@tks/core/InstanceSettingsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The stored value of `key`, storing `candidate` first when there is none (the first instance's value wins). */
    const getOrCreate = (key: string, candidate: string) =>
      sql`INSERT INTO instance_settings (key, value) VALUES (${key}, ${candidate}) ON CONFLICT (key) DO NOTHING`.pipe(
        Effect.zipRight(sql<{ value: string }>`SELECT value FROM instance_settings WHERE key = ${key}`),
        Effect.map((rows) => rows[0]?.value ?? candidate)
      )

    return { getOrCreate } as const
  })
}) {}
