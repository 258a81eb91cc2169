import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { ScopeMap } from "@tks/domain/oauth"

/** An organization, with its identity provider's settings when it has some (the columns are null otherwise). */
export interface OrganizationOAuthRow {
  readonly name: string
  readonly issuer: string | null
  readonly audience: string | null
  readonly person_claim: string | null
  readonly scope_map: ScopeMap | null
  readonly updated_at: Date | null
}

export class OAuthSettingsRepo extends Effect.Service<OAuthSettingsRepo>()("@tks/core/OAuthSettingsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The organization and its settings in one read; undefined when there is no such organization. */
    const find = (orgId: OrganizationId) =>
      sql<OrganizationOAuthRow>`
        SELECT o.name, s.issuer, s.audience, s.person_claim, s.scope_map, s.updated_at
        FROM organizations o LEFT JOIN oauth_settings s ON s.org_id = o.id
        WHERE o.id = ${orgId}`.pipe(Effect.map((rows) => rows[0]))

    /** Sets the organization's settings, replacing any; false when there is no such organization. */
    const upsert = (row: {
      readonly orgId: OrganizationId
      readonly issuer: string
      readonly audience: string | null
      readonly personClaim: string
      readonly scopeMap: ScopeMap | null
    }) =>
      sql<{ org_id: string }>`
        INSERT INTO oauth_settings (org_id, issuer, audience, person_claim, scope_map)
        SELECT o.id, ${row.issuer}, ${row.audience}, ${row.personClaim},
               ${row.scopeMap === null ? null : JSON.stringify(row.scopeMap)}::jsonb
        FROM organizations o WHERE o.id = ${row.orgId}
        ON CONFLICT (org_id) DO UPDATE SET issuer = excluded.issuer, audience = excluded.audience,
          person_claim = excluded.person_claim, scope_map = excluded.scope_map, updated_at = now()
        RETURNING org_id`.pipe(Effect.map((rows) => rows.length > 0))

    /** Forgets the organization's settings; true when there were some. */
    const remove = (orgId: OrganizationId) =>
      sql<{ org_id: string }>`DELETE FROM oauth_settings WHERE org_id = ${orgId} RETURNING org_id`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    return { find, upsert, remove } as const
  })
}) {}
