import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { newId } from "../common/ids.js"
import type { ScimAttributes } from "./filter.js"
import type { GroupRecord } from "./group-resource.js"

interface GroupRow {
  readonly id: string
  readonly name: string
  readonly external_id: string | null
  readonly created_at: Date
  readonly members: ReadonlyArray<{ readonly id: string; readonly name: string }> | null
}

const toRecord = (row: GroupRow): GroupRecord => ({
  id: row.id,
  name: row.name,
  externalId: row.external_id,
  members: row.members ?? [],
  created: row.created_at
})

/**
 * Teams as the SCIM Groups endpoint reads and writes them (migration
 * 0024): every team of the organization is a group, so a directory can
 * take over a team that is already here by its name; a team whose group
 * the directory deleted is no longer one. Members are team viewers unless
 * they were made team admins here, which a directory's changes keep.
 */
export class ScimGroupsRepo extends Effect.Service<ScimGroupsRepo>()("@tks/core/ScimGroupsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const attributes: ScimAttributes = new Map([
      ["id", { kind: "caseExact", column: sql`t.id` }],
      ["displayname", { kind: "string", column: sql`t.name` }],
      ["externalid", { kind: "caseExact", column: sql`t.external_id` }],
      ["meta.created", { kind: "dateTime", column: sql`t.created_at` }]
    ])

    const members = sql`(SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.sort_name, u.id)
      FROM team_members tm JOIN users u ON u.org_id = tm.org_id AND u.id = tm.user_id
      WHERE tm.org_id = t.org_id AND tm.team_id = t.id)`

    const columns = (withMembers: boolean) =>
      sql`t.id, t.name, t.external_id, t.created_at, ${withMembers ? members : sql`NULL::json`} AS members`

    const find = (orgId: OrganizationId, id: string) =>
      sql<GroupRow>`SELECT ${columns(true)} FROM teams t WHERE t.org_id = ${orgId} AND t.id = ${id} AND t.scim_removed_at IS NULL`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? undefined : toRecord(rows[0])))
      )

    /** Groups matching `condition`, by name, from the 1-based `startIndex` (SCIM pages by index); and how many match. */
    const page = (orgId: OrganizationId, condition: Fragment | null, startIndex: number, count: number, withMembers: boolean) => {
      const where = sql`t.org_id = ${orgId} AND t.scim_removed_at IS NULL ${condition === null ? sql`` : sql`AND ${condition}`}`
      return Effect.all([
        sql<{ total: number }>`SELECT count(*)::int AS total FROM teams t WHERE ${where}`,
        count === 0 ? Effect.succeed([] as ReadonlyArray<GroupRow>) : sql<GroupRow>`
          SELECT ${columns(withMembers)} FROM teams t WHERE ${where}
          ORDER BY t.sort_name, t.id OFFSET ${startIndex - 1} LIMIT ${count}`
      ]).pipe(Effect.map(([[counted], rows]) => ({ total: counted?.total ?? 0, records: rows.map(toRecord) })))
    }

    /** The team a directory's new group takes over: one named the same (any case), a removed one included. */
    const findByName = (orgId: OrganizationId, name: string) =>
      sql<{ id: string }>`SELECT id FROM teams WHERE org_id = ${orgId} AND lower(name) = lower(${name}) ORDER BY scim_removed_at NULLS FIRST, id LIMIT 1`
        .pipe(Effect.map((rows) => rows[0]?.id))

    const insert = (orgId: OrganizationId, name: string, externalId: string | null) => {
      const id = newId("team")
      return sql`INSERT INTO teams (org_id, id, name, external_id) VALUES (${orgId}, ${id}, ${name}, ${externalId})`.pipe(Effect.as(id))
    }

    /** The name and externalId as the directory says, a removed team a group again; whether anything changed. */
    const update = (orgId: OrganizationId, id: string, name: string, externalId: string | null) =>
      sql<{ id: string }>`
        UPDATE teams SET name = ${name}, external_id = ${externalId}, scim_removed_at = NULL
        WHERE org_id = ${orgId} AND id = ${id} AND (name, external_id, scim_removed_at) IS DISTINCT FROM (${name}, ${externalId}, NULL::timestamptz)
        RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

    /**
     * The team's members made exactly `memberIds` (people of the
     * organization; other ids are answered back as unknown): those not
     * named leave, those new join as team viewers, those staying keep their
     * role.
     */
    const setMembers = (orgId: OrganizationId, teamId: string, memberIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const known = yield* sql<{ id: string }>`SELECT id FROM users WHERE org_id = ${orgId} AND id = ANY(${[...memberIds]}::text[])`
        const knownIds = known.map((row) => row.id)
        const left = yield* sql<{ user_id: string }>`
          DELETE FROM team_members WHERE org_id = ${orgId} AND team_id = ${teamId} AND NOT (user_id = ANY(${knownIds}::text[]))
          RETURNING user_id`
        const joined = yield* sql<{ user_id: string }>`
          INSERT INTO team_members (org_id, team_id, user_id, role)
          SELECT ${orgId}, ${teamId}, joining.id, 'team-viewer' FROM unnest(${knownIds}::text[]) AS joining(id)
          ON CONFLICT (org_id, team_id, user_id) DO NOTHING
          RETURNING user_id`
        return {
          joined: joined.map((row) => row.user_id),
          left: left.map((row) => row.user_id),
          unknown: memberIds.filter((id) => !knownIds.includes(id))
        }
      })

    /** The directory deleted the group: the team loses its members and is no longer a group; it stays, with what was given to it. */
    const remove = (orgId: OrganizationId, id: string) =>
      Effect.gen(function*() {
        const removed = yield* sql<{ id: string }>`
          UPDATE teams SET scim_removed_at = now(), external_id = NULL
          WHERE org_id = ${orgId} AND id = ${id} AND scim_removed_at IS NULL RETURNING id`
        if (removed.length === 0) return false
        yield* sql`DELETE FROM team_members WHERE org_id = ${orgId} AND team_id = ${id}`
        return true
      })

    return { attributes, find, page, findByName, insert, update, setMembers, remove } as const
  })
}) {}
