import type { SqlClient, Statement } from "@effect/sql"
import type { UserId } from "@tks/domain/ids"
import type { Reach } from "@tks/domain/policy"
import { contentVisible, itemVisible, type Reader, spaceVisible, topicVisible } from "../knowledge/access.js"

/**
 * Who reads which issue, and which of its targets, as SQL conditions on a
 * `data_quality_issues` row and a `data_quality_issue_targets` row of the
 * outer query (the product's rule, policies.issues), by the reach the
 * policy granted:
 *
 * - `organization` (organization admins) reads every issue and every target;
 * - anyone else (`readable`) reads an issue only when they can read every one of its
 *   targets in the live graph or the library (the visibility rules of @tks/domain/visibility;
 *   categories are anyone's; a target gone from both hides the issue), so
 *   an issue without targets is anyone's. Being assigned an issue does not
 *   let its assignee past this: `assignedToMe` only narrows the listing.
 */

type Sql = SqlClient.SqlClient
type Fragment = Statement.Fragment

/** The caller as these conditions see them: the reach `organization` skips every visibility check. */
export interface IssueReader {
  readonly userId: UserId
  readonly reach: Reach
  readonly reader: Reader
}

/** The target row `alias` names a record `who` can read. */
export const targetVisible = (sql: Sql, who: IssueReader, alias: string): Fragment => {
  if (who.reach === "organization") return sql`TRUE`
  const t = sql(alias)
  const reader = who.reader
  return sql`(CASE ${t}.entity_type
    WHEN 'TOPIC' THEN EXISTS (SELECT 1 FROM topics iv_topic
      WHERE iv_topic.org_id = ${t}.org_id AND iv_topic.id = ${t}.entity_id AND ${topicVisible(sql, reader, "iv_topic")})
    WHEN 'ITEM' THEN EXISTS (SELECT 1 FROM items iv_item
      WHERE iv_item.org_id = ${t}.org_id AND iv_item.id = ${t}.entity_id AND ${itemVisible(sql, reader, "iv_item")})
    WHEN 'SPACE' THEN EXISTS (SELECT 1 FROM spaces iv_space
      WHERE iv_space.org_id = ${t}.org_id AND iv_space.id = ${t}.entity_id AND ${spaceVisible(sql, reader, "iv_space")})
    WHEN 'CATEGORY' THEN TRUE
    WHEN 'CONTENT' THEN EXISTS (SELECT 1 FROM content iv_content
      WHERE iv_content.org_id = ${t}.org_id AND iv_content.id = ${t}.entity_id AND ${contentVisible(sql, reader, "iv_content")})
    ELSE FALSE END)`
}

/** The issue row `alias` is assigned to `userId`, directly or through a company role they hold now. */
export const assignedTo = (sql: Sql, userId: UserId, alias: string): Fragment => {
  const issue = sql(alias)
  return sql`(${issue}.assignee_user_id = ${userId} OR EXISTS (
    SELECT 1 FROM role_members iv_holder
    WHERE iv_holder.org_id = ${issue}.org_id AND iv_holder.role_id = ${issue}.assignee_role_id
      AND iv_holder.user_id = ${userId} AND iv_holder.ended_at IS NULL))`
}

/**
 * The issue row `alias` is readable by `who`: a caller reaching the
 * organization reads every issue; anyone else one none of whose targets they cannot read
 * (an issue's title and description may name any of its targets, so a
 * single hidden target hides the issue, assigned to them or not). A
 * condition on the row, so the keyset page is cut after it.
 */
export const issueReadable = (sql: Sql, who: IssueReader, alias: string): Fragment => {
  if (who.reach === "organization") return sql`TRUE`
  const issue = sql(alias)
  return sql`NOT EXISTS (SELECT 1 FROM data_quality_issue_targets iv_target
    WHERE iv_target.org_id = ${issue}.org_id AND iv_target.issue_id = ${issue}.id AND NOT ${targetVisible(sql, who, "iv_target")})`
}
