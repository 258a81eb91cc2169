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

/** How a duty is held: RACI role, how held, the team's or role's name, senior, duty, lower(name). */
type HeldAs = readonly [
  raci: RaciRole,
  holderType: "person" | "team" | "role",
  holderName: string | null,
  senior: boolean,
  dutyId: string,
  holderNameLower: string
]

/** A duty the person holds on a topic: the topic, then how it is held. */
export type HeldDutyTopic = readonly [topicId: string, ...HeldAs]

/**
 * A duty the person holds on a space or a category: the spaces it reaches
 * (the space itself, or the category's spaces), then how it is held. Its
 * topics are the spaces' topics in the organization's topic graph
 * (candidates.ts), not one row per topic here: a
 * category duty reaches hundreds of topics, and listing them was half of
 * the statement's output.
 */
export type HeldAreaDuty = readonly [spaceIds: ReadonlyArray<string>, ...HeldAs]

/** An active obligation: item type, item id, required, due date (ISO text or null). */
export type OwedItem = readonly [itemType: "lesson" | "topic" | "item", itemId: string, required: boolean, dueDate: string | null]

/**
 * The person's own rows for their queue, as `reader` sees it, read in one
 * statement; the organization's topic graph comes from memory
 * (topic-graph-repo.ts, at `graph_version`) and assemble.ts puts the two together.
 */
export interface PersonQueueRow {
  /** The version of the organization's topic graph this statement saw. */
  readonly graph_version: string
  /** The organization's live spaces, each with whether the reader can read it. */
  readonly spaces: Readonly<Record<string, boolean>>
  /** The topics the person's duties on topics and items reach (duties/holdings.ts), one entry per duty and topic. */
  readonly duties: ReadonlyArray<HeldDutyTopic> | null
  /** The person's duties on spaces and categories, with the spaces they reach. */
  readonly area_duties?: ReadonlyArray<HeldAreaDuty> | null
  readonly obligations: ReadonlyArray<OwedItem> | null
  /** Lessons the person has started and not finished. */
  readonly started: ReadonlyArray<string> | null
  /** Lessons whose retraining is due. */
  readonly retraining: ReadonlyArray<string> | null
  /** The live items the person owes, with their topics. */
  readonly owed_items: ReadonlyArray<readonly [itemId: string, topicId: string]> | null
  /** Mastery per topic; a topic not listed is NONE. */
  readonly mastery: Readonly<Record<string, MasteryLevel>> | null
  /**
   * Each lesson an entry may start from, with its preference as text that
   * sorts like it: owed, else enrolled, else the newest (then the id).
   */
  readonly lessons: Readonly<Record<string, string>> | null
  /** The titles of the lessons the person owes. */
  readonly owed_lessons: Readonly<Record<string, string>> | null
}

/**
 * The person's rows of `userId`'s queue as `reader` sees it, at `now`:
 *
 * - duties: the topics their duties reach, each with how the duty is held;
 * - obligations: what they owe (lessons, topics, items, with the item's
 *   topic when the item is live);
 * - enrollments: the lessons they have started; those whose retraining is
 *   due (a completed enrollment whose retrain_at has passed with no later
 *   completion of the lesson and, when the lesson's policy retrains on
 *   changed material only, a content piece of the lesson updated since that
 *   completion);
 * - mastery; the live spaces and which the reader can read;
 * - the lessons an entry may start from: one the person owes (whatever the
 *   reader may open), else one the reader can open, preferring one the
 *   person is enrolled in, else the most recent open lesson (one made for a
 *   single person only for that person). The organization's open lessons
 *   for everyone are read whole from their own index (a large reach covers
 *   most of them), the person's own lessons (owed, enrolled in, made for
 *   them) by id, once, for their preferences and the owed ones' titles.
 *
 * Duties on topics and items come one row per topic; duties on spaces and
 * categories once each, with the spaces they reach (`area_duties`), and
 * candidates.ts takes those spaces' topics from the topic graph.
 *
 * Every table is reached by index probes driven by small sets
 * (`= ANY(ARRAY(...))`) or hashed `IN (...)` checks; nothing scans a table
 * of the graph. Each list is one JSON value, so the
 * whole read is one round trip and one snapshot.
 */
export const personQueueRows = (sql: SqlClient.SqlClient, { now, orgId, reader, userId }: QueueInput) =>
  sql<PersonQueueRow>`
    WITH
    held AS MATERIALIZED (${heldDuties(sql, { orgId, userId })}),
    -- Read once, below, for duties on topics and items only: inlined there, a duty on a space or a category
    -- is filtered out before its topics are looked up (those come with area_duties).
    duty_topic AS (${heldDutyTopics(sql, orgId, "held")}),
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
      (SELECT COALESCE(json_object_agg(s.id, ${spaceReadable(sql, reader, "s")}), '{}')
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
          WHERE l.org_id = ${orgId} AND l.status = 'open' AND l.personal_for_user_id IS NULL AND ${lessonReadable(sql, reader, "l")}
          UNION
          -- ...and of the person's own, those they owe (whatever the reader may open), or the reader can open and
          -- they are enrolled in, or open ones (made for everyone or for them).
          SELECT l.id, l.created_at FROM own_lesson l
          WHERE l.owed
            OR (${lessonReadable(sql, reader, "l")} AND (l.id IN (SELECT lesson_id FROM enrollment)
              OR (l.status = 'open' AND (l.personal_for_user_id IS NULL OR l.personal_for_user_id = ${userId}))))
        ) l
      ) AS lessons,
      (SELECT json_object_agg(l.id, l.title) FROM own_lesson l WHERE l.owed) AS owed_lessons`
