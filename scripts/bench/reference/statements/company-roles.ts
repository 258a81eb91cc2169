import { containsPattern } from "@tks/core/shared/text-search"
import { sql } from "../sql.js"
import { afterName } from "./members.js"

// Mirrors packages/core/src/company-roles/repo.ts (page and exists).

const columns = sql`r.id, r.name, r.sort_name, r.description, r.parent_role_id, r.created_at, r.updated_at,
      (SELECT count(*)::int FROM role_members rm JOIN users u ON u.org_id = rm.org_id AND u.id = rm.user_id
        WHERE rm.org_id = r.org_id AND rm.role_id = r.id AND rm.ended_at IS NULL AND u.status = 'ACTIVE') AS member_count`

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
