import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { CurriculumEntry } from "@tks/domain/company-role"
import type { EntityRef } from "@tks/domain/common"
import type { CompanyRoleId, OrganizationId } from "@tks/domain/ids"
import { lessonReadable, type Reader, topicVisible } from "../knowledge/access.js"
import { byName } from "../common/keyset.js"
import { containsPattern } from "../common/text-search.js"
import { direct } from "@tks/db/direct"

export interface CompanyRoleRow {
  readonly id: string
  readonly name: string
  readonly sort_name: string
  readonly description: string | null
  readonly parent_role_id: string | null
  readonly member_count: number
  readonly created_at: Date
  readonly updated_at: Date
}

interface CompanyRoleDetailRow extends CompanyRoleRow {
  readonly curriculum: ReadonlyArray<CurriculumEntry>
  readonly members: ReadonlyArray<EntityRef>
}


export class CompanyRolesRepo extends Effect.Service<CompanyRolesRepo>()("@tks/core/CompanyRolesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // member_count: the role's active current holders, kept by triggers (migration 0016); no row is none.
    const columns = sql`r.id, r.name, r.sort_name, r.description, r.parent_role_id, r.created_at, r.updated_at,
      COALESCE((SELECT c.members FROM company_role_member_counts c WHERE c.org_id = r.org_id AND c.role_id = r.id), 0) AS member_count`

    /** Roles by name (sort_name, id); `query` keeps those whose name contains it, case-insensitively. */
    const page = (input: {
      readonly orgId: OrganizationId
      readonly query: string | null
      readonly after: readonly [string, string] | null
      readonly limit: number
    }) =>
      direct(sql, sql<CompanyRoleRow>`
        SELECT ${columns}
        FROM company_roles r
        WHERE r.org_id = ${input.orgId}
          ${input.query === null ? sql`` : sql`AND r.sort_name LIKE lower(${containsPattern(input.query)}) ESCAPE '\\'`}
          ${byName.after(sql, "r", input.after)}
        ORDER BY r.sort_name, r.id
        LIMIT ${input.limit}`)

    /**
     * One role with its curriculum (position order; entries the reader cannot
     * read, and topics out of the live graph, left out) and its current
     * holders (active people whose holding has not ended, by name).
     */
    const find = (orgId: OrganizationId, roleId: CompanyRoleId, reader: Reader) =>
      sql<CompanyRoleDetailRow>`
        SELECT ${columns},
          COALESCE((
            SELECT json_agg(json_build_object('type', e.type, 'id', e.id, 'name', e.name) ORDER BY e.position)
            FROM (
              SELECT ce.position, 'lesson' AS type, l.id, l.title AS name
              FROM curriculum_entries ce JOIN lessons l ON l.org_id = ce.org_id AND l.id = ce.lesson_id
              WHERE ce.org_id = r.org_id AND ce.role_id = r.id AND ${lessonReadable(sql, reader, "l")}
              UNION ALL
              SELECT ce.position, 'topic' AS type, t.id, t.name
              FROM curriculum_entries ce JOIN topics t ON t.org_id = ce.org_id AND t.id = ce.topic_id
              WHERE ce.org_id = r.org_id AND ce.role_id = r.id AND ${topicVisible(sql, reader, "t")}
            ) e
          ), '[]') AS curriculum,
          COALESCE((
            SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.sort_name, u.id)
            FROM role_members rm JOIN users u ON u.org_id = rm.org_id AND u.id = rm.user_id
            WHERE rm.org_id = r.org_id AND rm.role_id = r.id AND rm.ended_at IS NULL AND u.status = 'ACTIVE'
          ), '[]') AS members
        FROM company_roles r
        WHERE r.org_id = ${orgId} AND r.id = ${roleId}`.pipe(Effect.map((rows) => rows[0]))

    const exists = (orgId: OrganizationId, roleId: CompanyRoleId) =>
      sql<{ id: string }>`SELECT id FROM company_roles WHERE org_id = ${orgId} AND id = ${roleId}`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    return { page, find, exists } as const
  })
}) {}
