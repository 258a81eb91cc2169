import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"

export interface OrganizationDomainRow {
  readonly org_id: string
  readonly domain: string
  readonly verified_at: Date
  readonly added_by: string
  readonly created_at: Date
}

/** SQL of the verified email domains. Domains arrive here already in their stored form (domain-name.ts). */
export class OrganizationDomainsRepo extends Effect.Service<OrganizationDomainsRepo>()("@tks/core/OrganizationDomainsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const organizationExists = (orgId: OrganizationId) =>
      sql<{ id: string }>`SELECT id FROM organizations WHERE id = ${orgId}`.pipe(Effect.map((rows) => rows.length > 0))

    /**
     * Adds the domain, verified now; undefined when any organization holds
     * it already (this one included). A concurrent add of the same domain
     * waits for the other transaction and then adds nothing.
     */
    const insert = (orgId: OrganizationId, domain: string, addedBy: string) =>
      sql<OrganizationDomainRow>`
        INSERT INTO organization_domains (org_id, domain, verified_at, added_by)
        VALUES (${orgId}, ${domain}, now(), ${addedBy})
        ON CONFLICT DO NOTHING
        RETURNING org_id, domain, verified_at, added_by, created_at`.pipe(Effect.map((rows) => rows[0]))

    /** The domain's row, whichever organization holds it. */
    const holder = (domain: string) =>
      sql<OrganizationDomainRow>`
        SELECT org_id, domain, verified_at, added_by, created_at FROM organization_domains WHERE domain = ${domain}`.pipe(
        Effect.map((rows) => rows[0])
      )

    /** Removes the organization's domain; the row it was, or undefined when the organization did not hold it. */
    const remove = (orgId: OrganizationId, domain: string) =>
      sql<OrganizationDomainRow>`
        DELETE FROM organization_domains WHERE org_id = ${orgId} AND domain = ${domain}
        RETURNING org_id, domain, verified_at, added_by, created_at`.pipe(Effect.map((rows) => rows[0]))

    /** The organization's domains by name (the primary key's order). */
    const list = (orgId: OrganizationId) =>
      sql<OrganizationDomainRow>`
        SELECT org_id, domain, verified_at, added_by, created_at FROM organization_domains
        WHERE org_id = ${orgId} ORDER BY domain`

    const holds = (orgId: OrganizationId, domain: string) =>
      sql<{ held: boolean }>`
        SELECT EXISTS (SELECT 1 FROM organization_domains WHERE org_id = ${orgId} AND domain = ${domain}) AS held`.pipe(
        Effect.map((rows) => rows[0]?.held === true)
      )

    return { organizationExists, insert, holder, remove, list, holds } as const
  })
}) {}
