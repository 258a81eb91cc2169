import { containsPattern } from "@tks/core/common/text-search"
import { type Fragment, ident, sql } from "../sql.js"

// Mirrors packages/core/src/members/repo.ts (members list and its count) and
// shared/keyset.ts (byName).

export interface PeopleFilter {
  readonly orgId: string
  readonly status: "active" | "deactivated" | "all"
  readonly onlyUserId: string | null
  readonly query: string | null
  readonly teamId: string | null
  readonly noManager: boolean
  readonly signedUpOnly?: boolean
}

const none = sql``

const where = (f: PeopleFilter): Fragment =>
  sql`
      u.org_id = ${f.orgId}
      ${f.status === "active" ? sql`AND u.status = 'ACTIVE'` : f.status === "deactivated" ? sql`AND u.status = 'DEACTIVATED'` : none}
      ${f.signedUpOnly === true ? sql`AND u.signed_up` : none}
      ${f.onlyUserId === null ? none : sql`AND u.id = ${f.onlyUserId}`}
      ${
    f.query === null ? none : sql`AND (u.name ILIKE ${containsPattern(f.query)} ESCAPE '\\' OR u.email ILIKE ${
      containsPattern(f.query)
    } ESCAPE '\\')`
  }
      ${
    f.teamId === null
      ? none
      : sql`AND EXISTS (SELECT 1 FROM team_members tm WHERE tm.org_id = u.org_id AND tm.team_id = ${f.teamId} AND tm.user_id = u.id)`
  }
      ${f.noManager ? sql`AND u.manager_id IS NULL AND u.manager_email IS NULL AND u.manager_name IS NULL` : none}`

/** keyset.ts byName.after */
export const afterName = (alias: string, key: readonly [string, string] | null): Fragment =>
  key === null ? sql`` : sql`AND (${ident(alias)}.sort_name, ${ident(alias)}.id) > (${key[0]}, ${key[1]})`

const heldCompanyRoles = (alias: string): Fragment => {
  const user = ident(alias)
  return sql`COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.sort_name, r.id)
                  FROM role_members rm JOIN company_roles r ON r.org_id = rm.org_id AND r.id = rm.role_id
                 WHERE rm.org_id = ${user}.org_id AND rm.user_id = ${user}.id AND rm.ended_at IS NULL), '[]')`
}

const managerColumns = sql`
      u.manager_id, m.name AS manager_member_name, m.status AS manager_member_status,
      (u.manager_id IS NULL AND (u.manager_email IS NOT NULL OR u.manager_name IS NOT NULL)) AS manager_unlinked`
const managerJoin = sql`LEFT JOIN users m ON m.org_id = u.org_id AND m.id = u.manager_id`

const memberColumns = sql`
      u.id, u.name, u.sort_name, u.email, u.status, u.signed_up, u.org_role, u.phone, u.deactivated_at,
      (u.directory_provisioned AND EXISTS (
        SELECT 1 FROM directory_connections dc WHERE dc.org_id = u.org_id AND dc.status <> 'DISCONNECTED')) AS directory_managed,
      ${heldCompanyRoles("u")} AS company_roles,
      COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'role', tm.role) ORDER BY t.sort_name, t.id)
                  FROM team_members tm JOIN teams t ON t.org_id = tm.org_id AND t.id = tm.team_id
                 WHERE tm.org_id = u.org_id AND tm.user_id = u.id), '[]') AS teams,
      ${managerColumns}`

export const memberPage = (filter: PeopleFilter, key: readonly [string, string] | null, limit: number) =>
  sql`
        SELECT ${memberColumns}
        FROM users u ${managerJoin}
        WHERE ${where(filter)} ${afterName("u", key)}
        ORDER BY u.sort_name, u.id
        LIMIT ${limit}`

const keptColumn = (f: PeopleFilter): Fragment | null => {
  if (f.onlyUserId !== null || f.query !== null || f.teamId !== null || f.noManager) return null
  if (f.signedUpOnly === true) return f.status === "all" ? sql`signed_up` : null
  return f.status === "active" ? sql`active` : f.status === "deactivated" ? sql`deactivated` : sql`active + deactivated`
}
const totalOf = (f: PeopleFilter): Fragment => {
  const kept = keptColumn(f)
  return kept === null
    ? sql`(SELECT count(*)::int FROM users u WHERE ${where(f)})`
    : sql`COALESCE((SELECT ${kept} FROM member_counts WHERE org_id = ${f.orgId}), 0)`
}

export const memberCount = (filter: PeopleFilter) =>
  sql`
        SELECT ${totalOf(filter)} AS total,
          ${
    filter.teamId === null
      ? sql`true`
      : sql`EXISTS (SELECT 1 FROM teams t WHERE t.org_id = ${filter.orgId} AND t.id = ${filter.teamId})`
  } AS team_known`
