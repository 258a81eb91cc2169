import type { SqlClient } from "@effect/sql"
import type { RaciRole } from "@tks/domain/duty"
import type { MasteryLevel } from "@tks/domain/learning-queue"
import { heldDuties, heldDutyTopics } from "../duties/holdings.js"
import { lessonReadable, type Reader, spaceReadable } from "../knowledge/access.js"

export interface QueueInput {
  readonly orgId: string
  readonly userId: string
  readonly reader: Reader
  readonly now: Date
}

/**
 * What the queue knows about one candidate entry: a topic (`kind` topic),
 * or a lesson the person owes that no topic readable by the reader backs
 * (`kind` lesson). The facts of `QueueFacts` (@tks/domain/learning-queue)
 * and what the entry shows; the service types, prioritises and ranks them.
 */
export interface QueueFactRow {
  readonly kind: "topic" | "lesson"
  readonly id: string
  readonly name: string
  readonly mastery: MasteryLevel
  /** The strongest RACI role among the person's duties on it (R, A, C, I); null without a duty. */
  readonly raci: RaciRole | null
  /** Some duty on it is held through a role at a tier senior to a MIN_TIER qualifier. */
  readonly senior: boolean
  /** How the strongest duty is held, and the team's or role's name. */
  readonly holder_type: "person" | "team" | "role" | null
  readonly holder_name: string | null
  readonly owed: boolean
  readonly required: boolean
  readonly due_date: Date | null
  readonly started: boolean
  readonly retraining_due: boolean
  readonly lesson_id: string
  readonly blocked: boolean
  readonly blocking_name: string | null
}

/**
 * Every candidate entry of `userId`'s queue as `reader` sees it, at `now`,
 * in one statement (the queue is recomputed on every request and ranked
 * whole: its order depends on every fact below).
 *
 * - Sources: the live topics the person's duties reach (duties/holdings.ts);
 *   the live topics covered by a lesson they owe (an active lesson
 *   obligation) or must retake; the topics they owe (topic obligations, and
 *   item obligations through the item's topic). Which topics a lesson
 *   covers is the `lesson_topics` table (migration 0009); each topic's
 *   name, lessons and prerequisites are one row of `topic_learning`
 *   (migration 0011).
 * - Only topics the reader can open (SPEC 4.5 rule 2), each with a lesson to
 *   start from: one the person owes (listed whatever the reader may open),
 *   else one the reader can open, preferring one the person is enrolled in,
 *   else the most recent open lesson (one made for a single person only for
 *   that person). The organization's open lessons for everyone are read
 *   whole from their own index (a large reach covers most of them), the
 *   person's own lessons by id.
 * - A lesson the person owes that no such topic backs is its own candidate,
 *   by its title; its mastery is the lowest of the topics it covers.
 * - Mastery: the `mastery` row, NONE without one. Retraining due: a completed
 *   enrollment whose retrain_at has passed with no later completion of the
 *   lesson and, when the lesson's policy retrains on changed material only,
 *   a content piece of the lesson updated since that completion.
 * - Blocked: a live prerequisite topic (in a live space) the person has not
 *   MASTERED; its name is the first by name among those the reader can open.
 *
 * The shape keeps the plan linear whatever the planner guesses: each fact
 * is gathered on its own by index probes driven by small sets
 * (`= ANY(ARRAY(...))`) or hashed `IN (...)` checks, as rows that fill
 * the columns of their fact only (at most one row of a kind per topic where
 * a choice is made, by DISTINCT ON over that one source), and one hashed
 * GROUP BY per topic puts them together with plain aggregates, which skip
 * the NULLs of the other facts. No set is
 * joined to another computed set (the planner takes such CTEs for one row
 * and nests loops over them: 3 s measured), and nothing scans a table of
 * the graph (DESIGN pitfall 16).
 */
export const queueFacts = (sql: SqlClient.SqlClient, { now, orgId, reader, userId }: QueueInput) =>
  sql<QueueFactRow>`
    WITH
    held AS MATERIALIZED (${heldDuties(sql, { orgId, userId })}),
    duty_topic AS MATERIALIZED (${heldDutyTopics(sql, orgId, "held")}),
    -- The organization's live spaces, each with whether the reader can read it, as one object looked up by
    -- key (an IN over a computed set is planned as a nested loop over it when the planner guesses one row).
    space AS MATERIALIZED (
      SELECT COALESCE(jsonb_object_agg(s.id, ${spaceReadable(sql, reader, "s")}), '{}') AS readable
      FROM spaces s WHERE s.org_id = ${orgId} AND s.state = 'live'
    ),
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
    -- Topics the lessons the person owes or must retake cover, whoever reads.
    pending_lesson_topic AS MATERIALIZED (
      SELECT lt.lesson_id, lt.topic_id FROM lesson_topics lt
      WHERE lt.org_id = ${orgId}
        AND lt.lesson_id = ANY(ARRAY(
          SELECT item_id FROM obligation WHERE item_type = 'lesson' UNION SELECT lesson_id FROM retrain_due))
    ),
    owed_item AS MATERIALIZED (
      SELECT i.id, i.topic_id FROM items i
      WHERE i.org_id = ${orgId} AND i.id = ANY(ARRAY(SELECT item_id FROM obligation WHERE item_type = 'item')) AND i.state = 'live'
    ),
    -- The topics the reader can open among them, each with its lessons and prerequisites (topic_learning).
    candidate AS MATERIALIZED (
      SELECT t.topic_id AS id, t.name, t.lesson_ids, t.prerequisites FROM topic_learning t
      WHERE t.org_id = ${orgId}
        AND t.topic_id = ANY(ARRAY(
          SELECT topic_id FROM duty_topic
          UNION SELECT topic_id FROM pending_lesson_topic
          UNION SELECT item_id FROM obligation WHERE item_type = 'topic'
          UNION SELECT topic_id FROM owed_item))
        AND t.live AND ((SELECT readable FROM space) -> t.space_id) = 'true'
    ),
    topic_lesson AS MATERIALIZED (
      SELECT c.id AS topic_id, l.lesson_id FROM candidate c CROSS JOIN LATERAL unnest(c.lesson_ids) AS l (lesson_id)
    ),
    -- Each lesson an entry may start from, once, with its preference as text that sorts like it: owed, else
    -- enrolled, else the newest (then the id); the lesson's id last. One object, so each topic looks its
    -- lessons up by key instead of joining (see above). MATERIALIZED: fact 4 reads it twice (its SELECT list and
    -- WHERE), and inlined it was built twice (~3 ms).
    lesson_preference AS MATERIALIZED (
      SELECT jsonb_object_agg(l.id,
        CASE WHEN l.id IN (SELECT item_id FROM obligation WHERE item_type = 'lesson') THEN '1' ELSE '0' END
        || CASE WHEN l.id IN (SELECT lesson_id FROM enrollment) THEN '1' ELSE '0' END
        || lpad((extract(epoch FROM l.created_at) * 1000000)::bigint::text, 20, '0') || l.id) AS preference
      FROM (
        -- The open lessons made for everyone the reader can open (index-only: lessons_open_shared)...
        SELECT l.id, l.created_at FROM lessons l
        WHERE l.org_id = ${orgId} AND l.status = 'open' AND l.personal_for_user_id IS NULL AND ${lessonReadable(sql, reader, "l")}
        UNION
        -- ...and those the person owes (whatever the reader may open), is enrolled in, or were made for them.
        SELECT l.id, l.created_at FROM lessons l
        WHERE l.org_id = ${orgId}
          AND (l.id = ANY(ARRAY(SELECT item_id FROM obligation WHERE item_type = 'lesson' UNION SELECT lesson_id FROM enrollment))
            OR l.personal_for_user_id = ${userId})
          AND (l.id IN (SELECT item_id FROM obligation WHERE item_type = 'lesson')
            OR (${lessonReadable(sql, reader, "l")} AND (l.id IN (SELECT lesson_id FROM enrollment)
              OR (l.status = 'open' AND (l.personal_for_user_id IS NULL OR l.personal_for_user_id = ${userId})))))
      ) l
    ),
    -- One row per fact, each kind filling its own columns and leaving the others NULL, so that the GROUP BY
    -- below folds them with plain aggregates, which skip NULLs without a call (a FILTER per aggregate, tested
    -- on every row, cost ~6 ms of ~31): the candidate (name), its strongest duty (raci, holder), a senior
    -- duty, a lesson to start from (preference), started, retraining due, mastery, owed (required, due
    -- date), a blocking prerequisite (blocking_name: one the reader can open).
    fact (topic_id, name, raci, holder_type, holder_name, senior, preference, started, retraining_due, mastery,
      owed, required, due_date, blocked, blocking_name) AS (
      SELECT c.id, c.name, NULL, NULL, NULL, NULL::boolean, NULL, NULL::boolean, NULL::boolean, NULL,
        NULL::boolean, NULL::boolean, NULL::timestamptz, NULL::boolean, NULL
      FROM candidate c
      UNION ALL
      -- The strongest duty on it: R, A, C, I, then through a role, a team, directly, then by name.
      (SELECT DISTINCT ON (d.topic_id COLLATE "C") d.topic_id, NULL, d.raci, d.holder_type, d.holder_name, NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, NULL, NULL, NULL
      FROM duty_topic d
      ORDER BY d.topic_id COLLATE "C",
        CASE d.raci WHEN 'RESPONSIBLE' THEN 0 WHEN 'ACCOUNTABLE' THEN 1 WHEN 'CONSULTED' THEN 2 ELSE 3 END,
        CASE d.holder_type WHEN 'role' THEN 0 WHEN 'team' THEN 1 ELSE 2 END,
        lower(COALESCE(d.holder_name, '')) COLLATE "C", d.duty_id)
      UNION ALL
      SELECT d.topic_id, NULL, NULL, NULL, NULL, TRUE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
      FROM duty_topic d WHERE d.senior
      UNION ALL
      SELECT tl.topic_id, NULL, NULL, NULL, NULL, NULL, p.preference, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
      FROM topic_lesson tl CROSS JOIN LATERAL (SELECT (SELECT preference FROM lesson_preference) ->> tl.lesson_id AS preference) p
      WHERE p.preference IS NOT NULL
      UNION ALL
      SELECT lt.topic_id, NULL, NULL, NULL, NULL, NULL, NULL, TRUE, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM lesson_topics lt
      WHERE lt.org_id = ${orgId}
        AND lt.lesson_id = ANY(ARRAY(SELECT lesson_id FROM enrollment WHERE status = 'in_progress' AND started_at IS NOT NULL))
      UNION ALL
      SELECT topic_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, TRUE, NULL, NULL, NULL, NULL, NULL, NULL FROM pending_lesson_topic
      WHERE lesson_id IN (SELECT lesson_id FROM retrain_due)
      UNION ALL
      SELECT m.topic_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, m.level, NULL, NULL, NULL, NULL, NULL FROM mastery m
      WHERE m.org_id = ${orgId} AND m.user_id = ${userId}
      UNION ALL
      -- What the person owes on it.
      SELECT plt.topic_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, TRUE, o.required, o.due_date, NULL, NULL
      FROM pending_lesson_topic plt JOIN obligation o ON o.item_type = 'lesson' AND o.item_id = plt.lesson_id
      UNION ALL
      SELECT item_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, TRUE, required, due_date, NULL, NULL
      FROM obligation WHERE item_type = 'topic'
      UNION ALL
      SELECT i.topic_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, TRUE, o.required, o.due_date, NULL, NULL
      FROM owed_item i JOIN obligation o ON o.item_type = 'item' AND o.item_id = i.id
      UNION ALL
      -- A prerequisite not mastered: the first by name the reader can open (its name), else another (no name).
      (SELECT DISTINCT ON (c.id COLLATE "C") c.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        NULL, TRUE, CASE WHEN ((SELECT readable FROM space) -> (p ->> 2)) = 'true' THEN p ->> 1 END
      -- Each prerequisite as [id, name, space_id, live] (topic_learning).
      FROM candidate c CROSS JOIN LATERAL jsonb_array_elements(c.prerequisites) p
      WHERE (p -> 3) = 'true' AND (SELECT readable FROM space) ? (p ->> 2)
        AND (p ->> 0) NOT IN (SELECT topic_id FROM mastery WHERE org_id = ${orgId} AND user_id = ${userId} AND level = 'MASTERED')
      ORDER BY c.id COLLATE "C", ((SELECT readable FROM space) -> (p ->> 2)) = 'true' DESC, lower(p ->> 1) COLLATE "C", p ->> 0)
    )
    SELECT 'topic' AS kind, f.topic_id AS id, max(f.name COLLATE "C") AS name,
      COALESCE(max(f.mastery COLLATE "C"), 'NONE') AS mastery,
      max(f.raci COLLATE "C") AS raci,
      COALESCE(bool_or(f.senior), FALSE) AS senior,
      max(f.holder_type COLLATE "C") AS holder_type,
      max(f.holder_name COLLATE "C") AS holder_name,
      COALESCE(bool_or(f.owed), FALSE) AS owed,
      COALESCE(bool_or(f.required), FALSE) AS required,
      min(f.due_date) AS due_date,
      COALESCE(bool_or(f.started), FALSE) AS started,
      COALESCE(bool_or(f.retraining_due), FALSE) AS retraining_due,
      substr(max(f.preference COLLATE "C"), 23) AS lesson_id,
      COALESCE(bool_or(f.blocked), FALSE) AS blocked,
      max(f.blocking_name COLLATE "C") AS blocking_name
    FROM fact f
    GROUP BY f.topic_id
    HAVING max(f.name COLLATE "C") IS NOT NULL AND max(f.preference COLLATE "C") IS NOT NULL
    UNION ALL
    SELECT 'lesson', l.id, l.title,
      (SELECT CASE min(CASE m.level WHEN 'MASTERED' THEN 2 WHEN 'PARTIAL' THEN 1 ELSE 0 END)
          WHEN 2 THEN 'MASTERED' WHEN 1 THEN 'PARTIAL' ELSE 'NONE' END
        FROM pending_lesson_topic plt
        LEFT JOIN mastery m ON m.org_id = ${orgId} AND m.user_id = ${userId} AND m.topic_id = plt.topic_id
        WHERE plt.lesson_id = l.id),
      NULL, FALSE, NULL, NULL, TRUE, o.required, o.due_date,
      l.id IN (SELECT lesson_id FROM enrollment WHERE status = 'in_progress' AND started_at IS NOT NULL),
      l.id IN (SELECT lesson_id FROM retrain_due),
      l.id, FALSE, NULL
    FROM obligation o JOIN lessons l ON l.org_id = ${orgId} AND l.id = o.item_id
    WHERE o.item_type = 'lesson'
      AND o.item_id NOT IN (SELECT lesson_id FROM pending_lesson_topic WHERE topic_id IN (SELECT id FROM candidate))`
