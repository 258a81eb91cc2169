import type { SqlClient, Statement } from "@effect/sql"
import { isOrganizationAdmin, organizationAdminRoles } from "@tks/domain/permissions"
import type { Reader } from "../knowledge/access.js"

/**
 * The content record `alias` is in the library (published) and readable by
 * `reader`: its `visibility` with its `content_teams` links, the rule of
 * spaces and lessons (DOMAIN "Visibility"). Evidence and chapters show only
 * through such content.
 *
 * A private copy for the graph reads and search: the content reads add the
 * same fragment to knowledge/access.ts (`contentVisible`), which replaces
 * this file when both are merged.
 */
export const contentVisible = (sql: SqlClient.SqlClient, reader: Reader, alias: string): Statement.Fragment => {
  const row = sql(alias)
  if (reader._tag === "UserRow") {
    const user = sql(reader.alias)
    return sql`(${row}.status = 'published' AND (${user}.org_role = ANY(${[...organizationAdminRoles]})
      OR (${row}.visibility = 'everyone' AND ${user}.org_role <> 'external')
      OR (${row}.visibility = 'teams' AND EXISTS (
        SELECT 1 FROM content_teams kv_content_link
        JOIN team_members kv_content_member ON kv_content_member.org_id = kv_content_link.org_id
          AND kv_content_member.team_id = kv_content_link.team_id
        WHERE kv_content_link.org_id = ${row}.org_id AND kv_content_link.content_id = ${row}.id
          AND kv_content_member.user_id = ${user}.id))))`
  }
  if (isOrganizationAdmin(reader.role)) return sql`${row}.status = 'published'`
  const everyone = reader.role === "external" ? sql`FALSE` : sql`${row}.visibility = 'everyone'`
  const teams = reader.teamIds.length === 0
    ? sql`FALSE`
    : sql`(${row}.visibility = 'teams' AND EXISTS (
        SELECT 1 FROM content_teams kv_content_link
        WHERE kv_content_link.org_id = ${row}.org_id AND kv_content_link.content_id = ${row}.id
          AND kv_content_link.team_id = ANY(${[...reader.teamIds]})))`
  return sql`(${row}.status = 'published' AND (${everyone} OR ${teams}))`
}
