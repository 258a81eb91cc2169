import type { SqlClient, Statement } from "@effect/sql"
import type { Actor } from "@tks/domain/actor"
import { actorTeamIds } from "@tks/domain/actor"
import { isOrganizationAdmin, organizationAdminRoles } from "@tks/domain/permissions"
import type { OrgRole } from "@tks/domain/roles"

/**
 * "What can this person read" and "is this record in the live graph", as SQL
 * conditions to drop into any query (docs/domain.md, Visibility and
 * Knowledge graph).
 * They mirror `canRead` of @tks/domain/visibility; tests hold the two together.
 *
 * - A space or lesson with visibility `everyone` is readable by every member
 *   except external accounts; `teams` by the members of its linked teams
 *   (space_teams / lesson_teams), external accounts included; `admins` by
 *   organization admins only. Organization admins read everything.
 * - Topics and items are readable when their space is.
 * - The live graph: records with state `live` whose ancestors (space, topic,
 *   parent items) are all live. Archived and superseded records are kept but
 *   left out of reads.
 *
 * Aliases name a row of the outer query (`spaces`, `topics`, `items` or
 * `lessons`); every condition stays inside that row's organization.
 */

/** Who is reading. */
export type Reader =
  /** A known person: their org role and team ids (e.g. the caller, from `readerOf(actor)`). */
  | { readonly _tag: "Person"; readonly role: OrgRole; readonly teamIds: ReadonlyArray<string> }
  /** A `users` row of the outer query (alias), for set-based checks over many people. */
  | { readonly _tag: "UserRow"; readonly alias: string }

export const readerOf = (actor: Actor): Reader => ({ _tag: "Person", role: actor.role, teamIds: actorTeamIds(actor) })

export const userRowReader = (alias: string): Reader => ({ _tag: "UserRow", alias })

type Sql = SqlClient.SqlClient
type Fragment = Statement.Fragment

/** A record with `visibility` and a team link table (`space_teams.space_id`, `lesson_teams.lesson_id`). */
const visibilityCondition = (
  sql: Sql,
  reader: Reader,
  alias: string,
  links: {
    readonly table: "space_teams" | "lesson_teams" | "content_teams"
    readonly column: "space_id" | "lesson_id" | "content_id"
  }
): Fragment => {
  const row = sql(alias)
  const table = sql(links.table)
  const column = sql(links.column)
  if (reader._tag === "Person") {
    if (isOrganizationAdmin(reader.role)) return sql`TRUE`
    const everyone = reader.role === "external" ? sql`FALSE` : sql`${row}.visibility = 'everyone'`
    const teams = reader.teamIds.length === 0
      ? sql`FALSE`
      : sql`(${row}.visibility = 'teams' AND EXISTS (
          SELECT 1 FROM ${table} kv_link
          WHERE kv_link.org_id = ${row}.org_id AND kv_link.${column} = ${row}.id AND kv_link.team_id = ANY(${[...reader.teamIds]})))`
    return sql`(${everyone} OR ${teams})`
  }
  const user = sql(reader.alias)
  return sql`(${user}.org_role = ANY(${[...organizationAdminRoles]})
    OR (${row}.visibility = 'everyone' AND ${user}.org_role <> 'external')
    OR (${row}.visibility = 'teams' AND EXISTS (
      SELECT 1 FROM ${table} kv_link
      JOIN team_members kv_member ON kv_member.org_id = kv_link.org_id AND kv_member.team_id = kv_link.team_id
      WHERE kv_link.org_id = ${row}.org_id AND kv_link.${column} = ${row}.id AND kv_member.user_id = ${user}.id)))`
}

/** The space `alias` is readable by `reader` (visibility only; see `spaceVisible` for the live graph too). */
export const spaceReadable = (sql: Sql, reader: Reader, alias: string): Fragment =>
  visibilityCondition(sql, reader, alias, { table: "space_teams", column: "space_id" })

/** The lesson `alias` is readable by `reader`. Lessons have no graph state. */
export const lessonReadable = (sql: Sql, reader: Reader, alias: string): Fragment =>
  visibilityCondition(sql, reader, alias, { table: "lesson_teams", column: "lesson_id" })

/** The space `alias` is in the live graph. */
export const spaceLive = (sql: Sql, alias: string): Fragment => sql`${sql(alias)}.state = 'live'`

/** The space `alias` is live and readable by `reader`. */
export const spaceVisible = (sql: Sql, reader: Reader, alias: string): Fragment =>
  sql`(${spaceLive(sql, alias)} AND ${spaceReadable(sql, reader, alias)})`

/** The topic `alias` is live, in a live space that `reader` can read. */
export const topicVisible = (sql: Sql, reader: Reader, alias: string): Fragment => {
  const topic = sql(alias)
  return sql`(${topic}.state = 'live' AND EXISTS (
    SELECT 1 FROM spaces kv_space
    WHERE kv_space.org_id = ${topic}.org_id AND kv_space.id = ${topic}.space_id AND ${spaceVisible(sql, reader, "kv_space")}))`
}

/** The topic `alias` is in the live graph (it and its space are live), whoever reads. */
export const topicLive = (sql: Sql, alias: string): Fragment => {
  const topic = sql(alias)
  return sql`(${topic}.state = 'live' AND EXISTS (
    SELECT 1 FROM spaces kv_live_space WHERE kv_live_space.org_id = ${topic}.org_id AND kv_live_space.id = ${topic}.space_id AND kv_live_space.state = 'live'))`
}

/** No parent item above the item `alias` is archived or superseded (walks up the parent chain). */
export const itemAncestorsLive = (sql: Sql, alias: string): Fragment => {
  const item = sql(alias)
  return sql`NOT EXISTS (
    WITH RECURSIVE kv_up AS (
      SELECT kv_parent.id, kv_parent.parent_item_id, kv_parent.state FROM items kv_parent
      WHERE kv_parent.org_id = ${item}.org_id AND kv_parent.id = ${item}.parent_item_id
      UNION
      SELECT kv_parent.id, kv_parent.parent_item_id, kv_parent.state FROM kv_up JOIN items kv_parent ON kv_parent.org_id = ${item}.org_id AND kv_parent.id = kv_up.parent_item_id
    )
    SELECT 1 FROM kv_up WHERE kv_up.state <> 'live')`
}

/** The item `alias` is in the live graph: it, its parent items, its topic and its space are live. */
export const itemLive = (sql: Sql, alias: string): Fragment => {
  const item = sql(alias)
  return sql`(${item}.state = 'live' AND EXISTS (
    SELECT 1 FROM topics kv_live_topic WHERE kv_live_topic.org_id = ${item}.org_id AND kv_live_topic.id = ${item}.topic_id AND ${topicLive(sql, "kv_live_topic")})
    AND ${itemAncestorsLive(sql, alias)})`
}

/** The item `alias` is in the live graph and its space is readable by `reader`. */
export const itemVisible = (sql: Sql, reader: Reader, alias: string): Fragment => {
  const item = sql(alias)
  return sql`(${item}.state = 'live' AND EXISTS (
    SELECT 1 FROM topics kv_topic WHERE kv_topic.org_id = ${item}.org_id AND kv_topic.id = ${item}.topic_id AND ${topicVisible(sql, reader, "kv_topic")})
    AND ${itemAncestorsLive(sql, alias)})`
}

/**
 * The content record `alias` is readable by `reader`: its `visibility` with
 * its `content_teams` links, the same rule as spaces and lessons. Visibility
 * only; `contentVisible` adds the status a read needs.
 */
export const contentReadable = (sql: Sql, reader: Reader, alias: string): Fragment =>
  visibilityCondition(sql, reader, alias, { table: "content_teams", column: "content_id" })

/**
 * The content record `alias` is in the library (status `published`; drafts,
 * records in review, rejected and withdrawn ones are not) and readable by
 * `reader`: what every read of content, its chapters and its evidence shows.
 */
export const contentVisible = (sql: Sql, reader: Reader, alias: string): Fragment =>
  sql`(${sql(alias)}.status = 'published' AND ${contentReadable(sql, reader, alias)})`
