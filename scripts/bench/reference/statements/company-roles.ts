import { containsPattern } from "@tks/core/common/text-search"
import { sql } from "../sql.js"
import { afterName } from "./members.js"

// Mirrors packages/core/src/company-roles/repo.ts (page and exists).

const columns = sql`r.id, r.name, r.sort_name, r.description, r.parent_role_id, r.created_at, r.updated_at,
      COALESCE((SELECT c.members FROM company_role_member_counts c WHERE c.org_id = r.org_id AND c.role_id = r.id), 0) AS member_count`

export const rolePage = (input: {
  readonly orgId: string
  readonly query: string | null
  readonly after: readonly [string, string] | null
  readonly limit: number
}) =>
  sql`
        SELECT ${columns}
        FROM company_roles r
        WHERE r.org_id = ${input.orgId}
          ${input.query === null ? sql`` : sql`AND r.sort_name LIKE lower(${containsPattern(input.query)}) ESCAPE '\\'`}
          ${afterName("r", input.after)}
        ORDER BY r.sort_name, r.id
        LIMIT ${input.limit}`

export const roleExists = (orgId: string, roleId: string) =>
  sql`SELECT id FROM company_roles WHERE org_id = ${orgId} AND id = ${roleId}`
