import type { SqlClient, Statement } from "@effect/sql"
import { itemAncestorsLive } from "../knowledge/access.js"

/**
 * "The person holds a duty", as SQL to
 * drop into any query: the learning queue (which topics a person's duties
 * reach) and the knowledge-obligation check of the assigning acts ("the
 * person must hold a duty on the topic or item, directly or through a
 * role or team") read the same rule here.
 *
 * A person holds a duty
 * - held by them directly (holder `person`);
 * - held by a team they are on (`team_members`, any team role);
 * - held by a company role they hold now (`role_members.ended_at IS NULL`)
 *   at a tier the duty's qualifier reaches: ALL always; MIN_TIER when their
 *   tier ranks at or above the duty's tier; MAX_TIER at or below; EXACT_TIER
 *   at the same rank. A role without an advancement path has no tiers, so
 *   its duties reach every holder whatever they name (ALL when the
 *   role has no advancement path); a holder recorded without a tier on a
 *   role that has one is reached by ALL duties only.
 * Duties held by third parties reach no person. The person's own status is
 * the caller's business (a departed person keeps their holdings on record).
 *
 * Every table is reached by index probes on small sets (`= ANY(ARRAY(...))`),
 * never by a join the planner could turn into a scan of the duty table
 * (the plain join form scanned the whole duty table: 40 ms instead of
 * 0.1 ms per item).
 */

type Sql = SqlClient.SqlClient
type Fragment = Statement.Fragment

export interface Holder {
  readonly orgId: string
  readonly userId: string
}

/**
 * A SELECT of the duties `holder.userId` holds, one row per duty, with the
 * columns
 * - `duty_id`, `raci`, `entity_type`, `entity_id`: the duty;
 * - `holder_type`: how the person holds it (`person`, `team` or `role`);
 * - `holder_name`: the team's or the role's name (null when held directly);
 * - `senior`: held through a role at a tier above the one a MIN_TIER duty
 *   names (the person is senior to the minimum the duty asks for).
 * Use it as a CTE: `held AS MATERIALIZED (${heldDuties(sql, holder)})`.
 */
export const heldDuties = (sql: Sql, { orgId, userId }: Holder): Fragment =>
  sql`
  SELECT d.id AS duty_id, d.raci, d.entity_type, d.entity_id, 'person' AS holder_type, NULL::text AS holder_name, FALSE AS senior
  FROM duties d
  WHERE d.org_id = ${orgId} AND d.holder_type = 'person' AND d.holder_id = ${userId}
  UNION ALL
  SELECT d.id, d.raci, d.entity_type, d.entity_id, 'team', tm.name, FALSE
  FROM duties d JOIN teams tm ON tm.org_id = d.org_id AND tm.id = d.holder_id
  WHERE d.org_id = ${orgId} AND d.holder_type = 'team'
    AND d.holder_id = ANY(ARRAY(SELECT team_id FROM team_members WHERE org_id = ${orgId} AND user_id = ${userId}))
  UNION ALL
  SELECT d.id, d.raci, d.entity_type, d.entity_id, 'role', r.name,
    COALESCE(d.tier_qualifier = 'MIN_TIER' AND held_tier.rank > duty_tier.rank, FALSE)
  FROM duties d
  JOIN role_members rm ON rm.org_id = d.org_id AND rm.role_id = d.holder_id AND rm.user_id = ${userId} AND rm.ended_at IS NULL
  JOIN company_roles r ON r.org_id = rm.org_id AND r.id = rm.role_id
  LEFT JOIN advancement_tiers held_tier ON held_tier.org_id = rm.org_id AND held_tier.id = rm.tier_id
  LEFT JOIN advancement_tiers duty_tier ON duty_tier.org_id = d.org_id AND duty_tier.id = d.tier_id
  WHERE d.org_id = ${orgId} AND d.holder_type = 'role'
    AND d.holder_id = ANY(ARRAY(SELECT role_id FROM role_members WHERE org_id = ${orgId} AND user_id = ${userId} AND ended_at IS NULL))
    AND (d.tier_qualifier = 'ALL'
      OR NOT EXISTS (SELECT 1 FROM advancement_tiers path WHERE path.org_id = rm.org_id AND path.role_id = rm.role_id)
      OR CASE d.tier_qualifier
        WHEN 'MIN_TIER' THEN held_tier.rank >= duty_tier.rank
        WHEN 'MAX_TIER' THEN held_tier.rank <= duty_tier.rank
        ELSE held_tier.rank = duty_tier.rank
      END)`

/**
 * The topics the duties of the CTE `held` (shaped as `heldDuties`) reach:
 * one row per duty and topic, with every column of `held` and `topic_id`.
 * A duty on a topic reaches it, on an item the item's topic, on a space its
 * topics, on a category the topics of its spaces. Items count only while
 * they and their parent items are live; whether each topic and its space
 * are live, and readable by whoever reads, is the caller's to check (see
 * knowledge/access.ts), on the topics it fetches anyway.
 *
 * Each held row is expanded by index probes (items by id, topics by space,
 * spaces by category), so the cost follows the person's duties, not the
 * size of the graph. Use it as a CTE after `held`:
 * `duty_topic AS MATERIALIZED (${heldDutyTopics(sql, orgId, "held")})`.
 */
export const heldDutyTopics = (sql: Sql, orgId: string, held: string): Fragment => {
  const h = sql(held)
  // Each lookup is a LATERAL subquery with OFFSET 0, so it stays a probe per held row: planned as joins,
  // a misjudged size of \`held\` can put a scan of the graph table on the outer side of a nested loop.
  return sql`
  SELECT d.*, d.entity_id AS topic_id
  FROM ${h} d WHERE d.entity_type = 'TOPIC'
  UNION ALL
  SELECT d.*, i.topic_id FROM ${h} d
  CROSS JOIN LATERAL (
    SELECT i.topic_id FROM items i
    WHERE i.org_id = ${orgId} AND i.id = d.entity_id AND i.state = 'live' AND (i.parent_item_id IS NULL OR ${itemAncestorsLive(sql, "i")})
    OFFSET 0
  ) i
  WHERE d.entity_type = 'ITEM'
  UNION ALL
  SELECT d.*, t.id FROM ${h} d
  CROSS JOIN LATERAL (SELECT t.id FROM topics t WHERE t.org_id = ${orgId} AND t.space_id = d.entity_id OFFSET 0) t
  WHERE d.entity_type = 'SPACE'
  UNION ALL
  SELECT d.*, t.id FROM ${h} d
  CROSS JOIN LATERAL (SELECT s.id FROM spaces s WHERE s.org_id = ${orgId} AND s.category_id = d.entity_id OFFSET 0) s
  CROSS JOIN LATERAL (SELECT t.id FROM topics t WHERE t.org_id = ${orgId} AND t.space_id = s.id OFFSET 0) t
  WHERE d.entity_type = 'CATEGORY'`
}
