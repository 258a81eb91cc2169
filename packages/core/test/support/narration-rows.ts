import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The narration tables as the tests set and read them, for core and server
 * tests alike: this UTC month's count of an organization, and its request
 * records.
 */
const thisMonth = "date_trunc('month', now() AT TIME ZONE 'UTC')::date"

/** This UTC month's count of an organization (0 when it has none). */
export const usedThisMonth = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ used: number }>`
      SELECT used FROM narration_allowances WHERE org_id = ${orgId} AND month = ${sql.literal(thisMonth)}`
    return rows[0]?.used ?? 0
  })

/** Sets this UTC month's count, as if `used` characters had been narrated already, and forgets the organization's request records. */
export const startMonthAt = (orgId: string, used: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DELETE FROM narration_requests WHERE org_id = ${orgId}`
    yield* sql`
      INSERT INTO narration_allowances (org_id, month, used) VALUES (${orgId}, ${sql.literal(thisMonth)}, ${used})
      ON CONFLICT (org_id, month) DO UPDATE SET used = excluded.used`
  })

/** The organization's request records, oldest first. */
export const requestRecords = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ id: string; outcome: string; characters: number; token_id: string; user_id: string; voice_id: string; provider: string; settled: boolean }>`
      SELECT id, outcome, characters, token_id, user_id, voice_id, provider, settled_at IS NOT NULL AS settled
      FROM narration_requests WHERE org_id = ${orgId} ORDER BY requested_at, id`
  })
