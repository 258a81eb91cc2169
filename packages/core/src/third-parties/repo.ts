import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId, ThirdPartyId } from "@tks/domain/ids"

export interface ThirdPartyRow {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly duty_count: number
  readonly created_at: Date
}

interface ThirdPartyDetailRow extends ThirdPartyRow {
  readonly responsible: number
  readonly accountable: number
  readonly consulted: number
  readonly informed: number
}

export class ThirdPartiesRepo extends Effect.Service<ThirdPartiesRepo>()("@tks/core/ThirdPartiesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Direct duties only (the duty records), counted by holder through duties_by_holder. */
    const dutyCount = sql`(SELECT count(*)::int FROM duties d
      WHERE d.org_id = p.org_id AND d.holder_type = 'third_party' AND d.holder_id = p.id) AS duty_count`

    /** Every third party of the organization, by name then id (third_parties_by_name). */
    const list = (orgId: OrganizationId) =>
      sql<ThirdPartyRow>`
        SELECT p.id, p.name, p.description, p.created_at, ${dutyCount}
        FROM third_parties p
        WHERE p.org_id = ${orgId}
        ORDER BY p.sort_name, p.id`

    /** One third party with its direct duties counted per RACI role. */
    const find = (orgId: OrganizationId, id: ThirdPartyId) =>
      sql<ThirdPartyDetailRow>`
        SELECT p.id, p.name, p.description, p.created_at,
          coalesce(r.total, 0) AS duty_count,
          coalesce(r.responsible, 0) AS responsible, coalesce(r.accountable, 0) AS accountable,
          coalesce(r.consulted, 0) AS consulted, coalesce(r.informed, 0) AS informed
        FROM third_parties p
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS total,
            (count(*) FILTER (WHERE d.raci = 'RESPONSIBLE'))::int AS responsible,
            (count(*) FILTER (WHERE d.raci = 'ACCOUNTABLE'))::int AS accountable,
            (count(*) FILTER (WHERE d.raci = 'CONSULTED'))::int AS consulted,
            (count(*) FILTER (WHERE d.raci = 'INFORMED'))::int AS informed
          FROM duties d
          WHERE d.org_id = p.org_id AND d.holder_type = 'third_party' AND d.holder_id = p.id
        ) r
        WHERE p.org_id = ${orgId} AND p.id = ${id}`.pipe(Effect.map((rows) => rows[0]))

    const exists = (orgId: OrganizationId, id: ThirdPartyId) =>
      sql<{ id: string }>`SELECT id FROM third_parties WHERE org_id = ${orgId} AND id = ${id}`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    return { list, find, exists } as const
  })
}) {}
