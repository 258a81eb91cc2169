import { isOrganizationAdmin } from "@tks/domain/permissions"
import type { OrgRole } from "@tks/domain/roles"
import { type Fragment, ident, sql } from "../sql.js"

// Mirrors packages/core/src/knowledge/access.ts (the `Person` reader only):
// what a person can read, as SQL conditions dropped into the statements.

export interface Reader {
  readonly role: OrgRole
  readonly teamIds: ReadonlyArray<string>
}

const visibilityCondition = (
  reader: Reader,
  alias: string,
  links: {
    readonly table: "space_teams" | "lesson_teams" | "content_teams"
    readonly column: "space_id" | "lesson_id" | "content_id"
  }
): Fragment => {
  const row = ident(alias)
  const table = ident(links.table)
  const column = ident(links.column)
  if (isOrganizationAdmin(reader.role)) return sql`TRUE`
  const everyone = reader.role === "external" ? sql`FALSE` : sql`${row}.visibility = 'everyone'`
  const teams = reader.teamIds.length === 0
    ? sql`FALSE`
    : sql`(${row}.visibility = 'teams' AND EXISTS (
          SELECT 1 FROM ${table} kv_link
          WHERE kv_link.org_id = ${row}.org_id AND kv_link.${column} = ${row}.id AND kv_link.team_id = ANY(${[...reader.teamIds]})))`
  return sql`(${everyone} OR ${teams})`
}

export const spaceReadable = (reader: Reader, alias: string): Fragment =>
  visibilityCondition(reader, alias, { table: "space_teams", column: "space_id" })

export const lessonReadable = (reader: Reader, alias: string): Fragment =>
  visibilityCondition(reader, alias, { table: "lesson_teams", column: "lesson_id" })

export const spaceLive = (alias: string): Fragment => sql`${ident(alias)}.state = 'live'`

export const spaceVisible = (reader: Reader, alias: string): Fragment =>
  sql`(${spaceLive(alias)} AND ${spaceReadable(reader, alias)})`

export const topicVisible = (reader: Reader, alias: string): Fragment => {
  const topic = ident(alias)
  return sql`(${topic}.state = 'live' AND EXISTS (
    SELECT 1 FROM spaces kv_space
    WHERE kv_space.org_id = ${topic}.org_id AND kv_space.id = ${topic}.space_id AND ${spaceVisible(reader, "kv_space")}))`
}

export const topicLive = (alias: string): Fragment => {
  const topic = ident(alias)
  return sql`(${topic}.state = 'live' AND EXISTS (
    SELECT 1 FROM spaces kv_live_space WHERE kv_live_space.org_id = ${topic}.org_id AND kv_live_space.id = ${topic}.space_id AND kv_live_space.state = 'live'))`
}

export const itemAncestorsLive = (alias: string): Fragment => {
  const item = ident(alias)
  return sql`NOT EXISTS (
    WITH RECURSIVE kv_up AS (
      SELECT kv_parent.id, kv_parent.parent_item_id, kv_parent.state FROM items kv_parent
      WHERE kv_parent.org_id = ${item}.org_id AND kv_parent.id = ${item}.parent_item_id
      UNION
      SELECT kv_parent.id, kv_parent.parent_item_id, kv_parent.state FROM kv_up JOIN items kv_parent ON kv_parent.org_id = ${item}.org_id AND kv_parent.id = kv_up.parent_item_id
    )
    SELECT 1 FROM kv_up WHERE kv_up.state <> 'live')`
}

export const itemLive = (alias: string): Fragment => {
  const item = ident(alias)
  return sql`(${item}.state = 'live' AND EXISTS (
    SELECT 1 FROM topics kv_live_topic WHERE kv_live_topic.org_id = ${item}.org_id AND kv_live_topic.id = ${item}.topic_id AND ${topicLive("kv_live_topic")})
    AND ${itemAncestorsLive(alias)})`
}

export const contentReadable = (reader: Reader, alias: string): Fragment =>
  visibilityCondition(reader, alias, { table: "content_teams", column: "content_id" })

export const contentVisible = (reader: Reader, alias: string): Fragment =>
  sql`(${ident(alias)}.status = 'published' AND ${contentReadable(reader, alias)})`
