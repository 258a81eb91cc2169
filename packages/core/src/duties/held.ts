import type { SqlClient, Statement } from "@effect/sql"

/**
 * Which duties people hold now (DOMAIN "Company roles and duties"): a person
 * holds a duty given to them directly, to a team they are on, or to a
 * company role they hold now (`role_members.ended_at IS NULL`) at a tier the
 * duty's qualifier reaches. A role without an advancement path is reached
 * whatever the qualifier (its duties read as ALL, as the duty listing shows
 * them); a holder of a role with a path but without a tier is reached only
 * by ALL. Third parties are not people.
 *
 * One query for every caller that asks "what does this person owe to know"
 * (knowledge obligations, the learning queue). Each row is one way a person
 * holds one duty, with `took_on_at`, the basis of a due date counted from
 * the duty: when they took on the role, or when the duty was given to them
 * or their team.
 *
 * A duty sits on a category, space, topic or item and reaches everything
 * under it; `dutyTargets` lists what a duty may sit on to reach a topic or
 * an item.
 */

type Sql = SqlClient.SqlClient
type Fragment = Statement.Fragment

export interface HeldDutyRow {
  readonly user_id: string
  readonly duty_id: string
  readonly raci: "RESPONSIBLE" | "ACCOUNTABLE" | "CONSULTED" | "INFORMED"
  readonly entity_type: "TOPIC" | "ITEM" | "SPACE" | "CATEGORY"
  readonly entity_id: string
  readonly took_on_at: Date
  readonly held_through: "person" | "team" | "role"
}

/** Rows of `HeldDutyRow` for the people `userIds` of `orgId` (a subquery: wrap it in a CTE or FROM). */
export const heldDuties = (sql: Sql, orgId: string, userIds: ReadonlyArray<string>): Fragment => {
  const people = [...userIds]
  return sql`
    SELECT d.holder_id AS user_id, d.id AS duty_id, d.raci, d.entity_type, d.entity_id, d.created_at AS took_on_at, 'person' AS held_through
    FROM duties d
    WHERE d.org_id = ${orgId} AND d.holder_type = 'person' AND d.holder_id = ANY(${people}::text[])
    UNION ALL
    SELECT tm.user_id, d.id, d.raci, d.entity_type, d.entity_id, d.created_at, 'team'
    FROM team_members tm
    JOIN duties d ON d.org_id = tm.org_id AND d.holder_type = 'team' AND d.holder_id = tm.team_id
    WHERE tm.org_id = ${orgId} AND tm.user_id = ANY(${people}::text[])
    UNION ALL
    SELECT rm.user_id, d.id, d.raci, d.entity_type, d.entity_id, rm.started_at, 'role'
    FROM role_members rm
    JOIN duties d ON d.org_id = rm.org_id AND d.holder_type = 'role' AND d.holder_id = rm.role_id
    LEFT JOIN advancement_tiers held_tier ON held_tier.org_id = rm.org_id AND held_tier.id = rm.tier_id
    LEFT JOIN advancement_tiers duty_tier ON duty_tier.org_id = d.org_id AND duty_tier.id = d.tier_id
    WHERE rm.org_id = ${orgId} AND rm.user_id = ANY(${people}::text[]) AND rm.ended_at IS NULL
      AND (d.tier_qualifier = 'ALL'
        OR NOT EXISTS (SELECT 1 FROM advancement_tiers path WHERE path.org_id = rm.org_id AND path.role_id = rm.role_id)
        OR CASE d.tier_qualifier
          WHEN 'MIN_TIER' THEN held_tier.rank >= duty_tier.rank
          WHEN 'MAX_TIER' THEN held_tier.rank <= duty_tier.rank
          ELSE held_tier.rank = duty_tier.rank
        END)`
}

/**
 * What a duty may sit on to reach the live topic or item `entityId`
 * (entity_type, entity_id): the record itself, an item's parent items and
 * topic, then the space and the category. Empty when the record is not in
 * the live graph or `visible` (a condition on the topic `kt` or item `ki`)
 * rejects it.
 */
export const dutyTargets = (
  sql: Sql,
  orgId: string,
  target: { readonly type: "topic" | "item"; readonly id: string },
  visible: { readonly topic: (alias: string) => Fragment; readonly item: (alias: string) => Fragment }
): Fragment =>
  target.type === "topic"
    ? sql`
      SELECT v.entity_type, v.entity_id
      FROM topics kt
      JOIN spaces ks ON ks.org_id = kt.org_id AND ks.id = kt.space_id
      CROSS JOIN LATERAL (VALUES ('TOPIC', kt.id), ('SPACE', ks.id), ('CATEGORY', ks.category_id)) v(entity_type, entity_id)
      WHERE kt.org_id = ${orgId} AND kt.id = ${target.id} AND ${visible.topic("kt")}`
    : sql`
      WITH RECURSIVE up AS (
        SELECT ki.id, ki.parent_item_id, ki.topic_id FROM items ki
        WHERE ki.org_id = ${orgId} AND ki.id = ${target.id} AND ${visible.item("ki")}
        UNION ALL
        SELECT parent.id, parent.parent_item_id, parent.topic_id FROM up
        JOIN items parent ON parent.org_id = ${orgId} AND parent.id = up.parent_item_id
      )
      SELECT 'ITEM' AS entity_type, up.id AS entity_id FROM up
      UNION ALL
      SELECT v.entity_type, v.entity_id
      FROM items ki
      JOIN topics kt ON kt.org_id = ki.org_id AND kt.id = ki.topic_id
      JOIN spaces ks ON ks.org_id = kt.org_id AND ks.id = kt.space_id
      CROSS JOIN LATERAL (VALUES ('TOPIC', kt.id), ('SPACE', ks.id), ('CATEGORY', ks.category_id)) v(entity_type, entity_id)
      WHERE ki.org_id = ${orgId} AND ki.id = ${target.id} AND ${visible.item("ki")}`
