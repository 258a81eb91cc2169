import { type Fragment, ident, sql } from "../sql.js"
import { itemAncestorsLive, lessonReadable, type Reader, spaceReadable } from "./access.js"

// Mirrors packages/core/src/duties/holdings.ts (heldDuties, heldDutyTopics),
// learning-queue/queue-sql.ts (the person's rows) and
// learning-queue/topic-graph.ts (the organization's graph, read once per
// version). The text inside the templates is the statements' text.

export interface QueueInput {
  readonly orgId: string
  readonly userId: string
  readonly reader: Reader
  readonly now: Date
}

export const heldDuties = ({ orgId, userId }: { readonly orgId: string; readonly userId: string }): Fragment =>
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

export const heldDutyTopics = (orgId: string, held: string): Fragment => {
  const h = ident(held)
  // Each lookup is a LATERAL subquery with OFFSET 0, so it stays a probe per held row: planned as joins,
  // a misjudged size of \`held\` can put a scan of the graph table on the outer side of a nested loop.
  return sql`
  SELECT d.*, d.entity_id AS topic_id
  FROM ${h} d WHERE d.entity_type = 'TOPIC'
  UNION ALL
  SELECT d.*, i.topic_id FROM ${h} d
  CROSS JOIN LATERAL (
    SELECT i.topic_id FROM items i
    WHERE i.org_id = ${orgId} AND i.id = d.entity_id AND i.state = 'live' AND (i.parent_item_id IS NULL OR ${itemAncestorsLive("i")})
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

export const personQueueRows = ({ now, orgId, reader, userId }: QueueInput) =>
  sql`
    WITH
    held AS MATERIALIZED (${heldDuties({ orgId, userId })}),
    -- Read once, below, for duties on topics and items only: inlined there, a duty on a space or a category
    -- is filtered out before its topics are looked up (those come with area_duties).
    duty_topic AS (${heldDutyTopics(orgId, "held")}),
    obligation AS MATERIALIZED (
      SELECT o.item_type, o.item_id, o.required, o.due_date FROM obligations o
      WHERE o.org_id = ${orgId} AND o.user_id = ${userId} AND o.status = 'active'
    ),
    enrollment AS MATERIALIZED (
      SELECT e.lesson_id, e.status, e.started_at, e.completed_at, e.retrain_at FROM enrollments e
      WHERE e.org_id = ${orgId} AND e.user_id = ${userId}
    ),
    retrain_due AS MATERIALIZED (
      SELECT DISTINCT e.lesson_id FROM enrollment e
      LEFT JOIN lesson_retraining_policies p ON p.org_id = ${orgId} AND p.lesson_id = e.lesson_id
      WHERE e.status = 'completed' AND e.retrain_at <= ${now}
        AND NOT EXISTS (
          SELECT 1 FROM enrollments later
          WHERE later.org_id = ${orgId} AND later.user_id = ${userId} AND later.lesson_id = e.lesson_id
            AND later.status = 'completed' AND later.completed_at > e.completed_at)
        AND (p.completion_mode IS DISTINCT FROM 'changed_material' OR EXISTS (
          SELECT 1 FROM lesson_content lc JOIN content c ON c.org_id = lc.org_id AND c.id = lc.content_id
          WHERE lc.org_id = ${orgId} AND lc.lesson_id = e.lesson_id AND c.updated_at > e.completed_at))
    ),
    -- The lessons the person owes, is enrolled in, or that were made for them (lessons_personal finds the last),
    -- each probed by id: as one OR, or as id = ANY(ARRAY(...)) on a small table, the planner reads every lesson of the
    -- organization and compares each with every id (1.8 ms at 800 lessons, against 0.3 ms).
    own_lesson AS MATERIALIZED (
      SELECT l.*, l.id IN (SELECT item_id FROM obligation WHERE item_type = 'lesson') AS owed
      FROM (
        SELECT item_id AS id FROM obligation WHERE item_type = 'lesson'
        UNION SELECT lesson_id FROM enrollment
        UNION SELECT p.id FROM lessons p WHERE p.org_id = ${orgId} AND p.personal_for_user_id = ${userId}
      ) own
      CROSS JOIN LATERAL (
        SELECT l.org_id, l.id, l.created_at, l.title, l.status, l.visibility, l.personal_for_user_id FROM lessons l
        WHERE l.org_id = ${orgId} AND l.id = own.id OFFSET 0
      ) l
    )
    SELECT
      COALESCE((SELECT v.version FROM topic_learning_versions v WHERE v.org_id = ${orgId}), 0)::text AS graph_version,
      (SELECT COALESCE(json_object_agg(s.id, ${spaceReadable(reader, "s")}), '{}')
        FROM spaces s WHERE s.org_id = ${orgId} AND s.state = 'live') AS spaces,
      (SELECT json_agg(json_build_array(d.topic_id, d.raci, d.holder_type, d.holder_name, d.senior, d.duty_id,
          lower(COALESCE(d.holder_name, ''))))
        FROM duty_topic d WHERE d.entity_type IN ('TOPIC', 'ITEM')) AS duties,
      (SELECT json_agg(json_build_array(
          CASE WHEN d.entity_type = 'SPACE' THEN ARRAY[d.entity_id]
            ELSE ARRAY(SELECT s.id FROM spaces s WHERE s.org_id = ${orgId} AND s.category_id = d.entity_id) END,
          d.raci, d.holder_type, d.holder_name, d.senior, d.duty_id, lower(COALESCE(d.holder_name, ''))))
        FROM held d WHERE d.entity_type IN ('SPACE', 'CATEGORY')) AS area_duties,
      (SELECT json_agg(json_build_array(o.item_type, o.item_id, o.required, o.due_date)) FROM obligation o) AS obligations,
      (SELECT json_agg(e.lesson_id) FROM enrollment e WHERE e.status = 'in_progress' AND e.started_at IS NOT NULL) AS started,
      (SELECT json_agg(r.lesson_id) FROM retrain_due r) AS retraining,
      (SELECT json_agg(json_build_array(i.id, i.topic_id)) FROM items i
        WHERE i.org_id = ${orgId} AND i.id = ANY(ARRAY(SELECT item_id FROM obligation WHERE item_type = 'item')) AND i.state = 'live'
      ) AS owed_items,
      (SELECT json_object_agg(m.topic_id, m.level) FROM mastery m WHERE m.org_id = ${orgId} AND m.user_id = ${userId}) AS mastery,
      (SELECT json_object_agg(l.id,
          CASE WHEN l.id IN (SELECT item_id FROM obligation WHERE item_type = 'lesson') THEN '1' ELSE '0' END
          || CASE WHEN l.id IN (SELECT lesson_id FROM enrollment) THEN '1' ELSE '0' END
          || lpad((extract(epoch FROM l.created_at) * 1000000)::bigint::text, 20, '0') || l.id)
        FROM (
          -- The open lessons made for everyone the reader can open (index-only: lessons_open_shared)...
          SELECT l.id, l.created_at FROM lessons l
          WHERE l.org_id = ${orgId} AND l.status = 'open' AND l.personal_for_user_id IS NULL AND ${lessonReadable(reader, "l")}
          UNION
          -- ...and of the person's own, those they owe (whatever the reader may open), or the reader can open and
          -- they are enrolled in, or open ones (made for everyone or for them).
          SELECT l.id, l.created_at FROM own_lesson l
          WHERE l.owed
            OR (${lessonReadable(reader, "l")} AND (l.id IN (SELECT lesson_id FROM enrollment)
              OR (l.status = 'open' AND (l.personal_for_user_id IS NULL OR l.personal_for_user_id = ${userId}))))
        ) l
      ) AS lessons,
      (SELECT json_object_agg(l.id, l.title) FROM own_lesson l WHERE l.owed) AS owed_lessons`

/** The topic graph of an organization, with its version. */
export const topicGraph = (orgId: string) =>
      sql`
        SELECT COALESCE((SELECT v.version FROM topic_learning_versions v WHERE v.org_id = ${orgId}), 0)::text AS version,
          (SELECT json_agg(json_build_array(t.topic_id, t.space_id, t.name, t.live, t.lesson_ids,
              -- Each prerequisite as [id, name, space_id, live] (migration 0011), with lower(name) added.
              (SELECT COALESCE(json_agg(json_build_array(p ->> 0, p ->> 1, p ->> 2, p -> 3, lower(p ->> 1))), '[]')
                FROM jsonb_array_elements(t.prerequisites) p)))
            FROM topic_learning t WHERE t.org_id = ${orgId}) AS topics`
