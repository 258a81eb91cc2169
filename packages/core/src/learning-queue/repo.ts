import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RaciRole } from "@tks/domain/duty"
import type { MasteryLevel } from "@tks/domain/learning-queue"
import type { MemberStatus } from "@tks/domain/roles"
import { heldDuties, heldDutyTopics } from "../duties/holdings.js"
import { lessonReadable, type Reader, topicLive, topicVisible } from "../knowledge/access.js"

/** The person whose queue is read, and whether the reader manages them at any depth of the reporting line. */
export interface QueuePersonRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly status: MemberStatus
  readonly managed_by_reader: boolean
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

export class LearningQueueRepo extends Effect.Service<LearningQueueRepo>()("@tks/core/LearningQueueRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The person (any status), and whether `readerId` is one of their managers, directly or further up the line. */
    const person = (orgId: string, personId: string, readerId: string) =>
      sql<QueuePersonRow>`
        WITH RECURSIVE line (manager_id) AS (
          SELECT u.manager_id FROM users u WHERE u.org_id = ${orgId} AND u.id = ${personId} AND u.manager_id IS NOT NULL
          UNION
          SELECT m.manager_id FROM line JOIN users m ON m.org_id = ${orgId} AND m.id = line.manager_id
          WHERE m.manager_id IS NOT NULL
        )
        SELECT u.id, u.name, u.email, u.status, EXISTS (SELECT 1 FROM line WHERE line.manager_id = ${readerId}) AS managed_by_reader
        FROM users u WHERE u.org_id = ${orgId} AND u.id = ${personId}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Every candidate entry of `userId`'s queue as `reader` sees it, at
     * `now`, in one statement (the queue is recomputed on every request and
     * ranked whole: its order depends on every fact below).
     *
     * - Sources: the live topics the person's duties reach (duties/holdings.ts);
     *   the live topics covered by a lesson they owe (an active lesson
     *   obligation) or must retake; the topics they owe (topic obligations, and
     *   item obligations through the item's topic). A lesson covers a topic
     *   when one of its content pieces is evidence for a live item of it.
     * - Only topics the reader can open (SPEC 4.5 rule 2), each with a lesson to
     *   start from: one the person owes (listed whatever the reader may open),
     *   else one the reader can open, preferring one the person is enrolled
     *   in, else the most recent open lesson (a lesson made for a single
     *   person only for that person).
     * - A lesson the person owes that no such topic backs is its own candidate,
     *   by its title; its mastery is the lowest of the topics it covers.
     * - Mastery: the `mastery` row, NONE without one. Retraining due: a completed
     *   enrollment whose retrain_at has passed with no later completion of the
     *   lesson, and, when the lesson's policy retrains on changed material only,
     *   a content piece of the lesson updated since that completion.
     * - Blocked: a live prerequisite topic the person has not MASTERED; its name
     *   is the first by name among those the reader can open.
     *
     * Each table is reached by index probes on small sets (`= ANY(ARRAY(...))`)
     * or joins between small materialised sets (DESIGN pitfall 16).
     */
    const facts = (input: { readonly orgId: string; readonly userId: string; readonly reader: Reader; readonly now: Date }) => {
      const { now, orgId, reader, userId } = input
      return sql<QueueFactRow>`
        WITH
        held AS MATERIALIZED (${heldDuties(sql, { orgId, userId })}),
        duty_topic AS MATERIALIZED (${heldDutyTopics(sql, orgId, "held")}),
        obligation AS MATERIALIZED (
          SELECT o.item_type, o.item_id, o.required, o.due_date FROM obligations o
          WHERE o.org_id = ${orgId} AND o.user_id = ${userId} AND o.status = 'active'
        ),
        enrollment AS MATERIALIZED (
          SELECT e.lesson_id, e.status, e.started_at, e.completed_at, e.retrain_at FROM enrollments e
          WHERE e.org_id = ${orgId} AND e.user_id = ${userId}
        ),
        started_lesson AS MATERIALIZED (
          SELECT DISTINCT lesson_id FROM enrollment WHERE status = 'in_progress' AND started_at IS NOT NULL
        ),
        retrain_due AS MATERIALIZED (
          SELECT DISTINCT e.lesson_id FROM enrollment e
          LEFT JOIN lesson_retraining_policies p ON p.org_id = ${orgId} AND p.lesson_id = e.lesson_id
          WHERE e.status = 'completed' AND e.retrain_at <= ${now}
            AND NOT EXISTS (
              SELECT 1 FROM enrollment later
              WHERE later.lesson_id = e.lesson_id AND later.status = 'completed' AND later.completed_at > e.completed_at)
            AND (p.completion_mode IS DISTINCT FROM 'changed_material' OR EXISTS (
              SELECT 1 FROM lesson_content lc JOIN content c ON c.org_id = lc.org_id AND c.id = lc.content_id
              WHERE lc.org_id = ${orgId} AND lc.lesson_id = e.lesson_id AND c.updated_at > e.completed_at))
        ),
        owed_lesson AS MATERIALIZED (
          SELECT item_id AS lesson_id, required, due_date FROM obligation WHERE item_type = 'lesson'
        ),
        -- The live topics covered by the lessons the person owes or must retake (whoever reads).
        pending_lesson_topic AS MATERIALIZED (
          SELECT DISTINCT lc.lesson_id, i.topic_id
          FROM lesson_content lc
          JOIN evidence ev ON ev.org_id = lc.org_id AND ev.content_id = lc.content_id
          JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id
          JOIN topics t ON t.org_id = i.org_id AND t.id = i.topic_id
          WHERE lc.org_id = ${orgId}
            AND lc.lesson_id = ANY(ARRAY(SELECT lesson_id FROM owed_lesson UNION SELECT lesson_id FROM retrain_due))
            AND i.state = 'live' AND ${topicLive(sql, "t")}
        ),
        owed_item AS MATERIALIZED (
          SELECT i.id, i.topic_id FROM items i
          WHERE i.org_id = ${orgId} AND i.id = ANY(ARRAY(SELECT item_id FROM obligation WHERE item_type = 'item')) AND i.state = 'live'
        ),
        candidate AS MATERIALIZED (
          SELECT t.id, t.name FROM topics t
          WHERE t.org_id = ${orgId}
            AND t.id = ANY(ARRAY(
              SELECT topic_id FROM duty_topic
              UNION SELECT topic_id FROM pending_lesson_topic
              UNION SELECT item_id FROM obligation WHERE item_type = 'topic'
              UNION SELECT topic_id FROM owed_item))
            AND ${topicVisible(sql, reader, "t")}
        ),
        topic_lesson AS MATERIALIZED (
          SELECT DISTINCT i.topic_id, lc.lesson_id
          FROM items i
          JOIN evidence ev ON ev.org_id = i.org_id AND ev.item_id = i.id
          JOIN lesson_content lc ON lc.org_id = ev.org_id AND lc.content_id = ev.content_id
          WHERE i.org_id = ${orgId} AND i.topic_id = ANY(ARRAY(SELECT id FROM candidate)) AND i.state = 'live'
        ),
        lesson AS MATERIALIZED (
          SELECT l.id, l.created_at,
            l.id = ANY(ARRAY(SELECT lesson_id FROM owed_lesson)) AS owed,
            l.id = ANY(ARRAY(SELECT lesson_id FROM enrollment)) AS enrolled,
            l.status = 'open' AND (l.personal_for_user_id IS NULL OR l.personal_for_user_id = ${userId}) AS open_to_person,
            ${lessonReadable(sql, reader, "l")} AS readable
          FROM lessons l
          WHERE l.org_id = ${orgId} AND l.id = ANY(ARRAY(SELECT DISTINCT lesson_id FROM topic_lesson))
        ),
        lesson_choice AS (
          SELECT DISTINCT ON (tl.topic_id) tl.topic_id, l.id AS lesson_id
          FROM topic_lesson tl JOIN lesson l ON l.id = tl.lesson_id
          WHERE l.owed OR (l.readable AND (l.enrolled OR l.open_to_person))
          ORDER BY tl.topic_id, l.owed DESC, l.enrolled DESC, l.created_at DESC, l.id DESC
        ),
        lesson_fact AS (
          SELECT tl.topic_id,
            bool_or(tl.lesson_id IN (SELECT lesson_id FROM started_lesson)) AS started,
            bool_or(tl.lesson_id IN (SELECT lesson_id FROM retrain_due)) AS retraining_due
          FROM topic_lesson tl GROUP BY tl.topic_id
        ),
        -- The strongest duty first: RESPONSIBLE, ACCOUNTABLE, CONSULTED, INFORMED, then through a role, a team, directly, then by name.
        duty_fact AS (
          SELECT dt.topic_id, bool_or(h.senior) AS senior,
            (array_agg(h.raci ORDER BY h.raci_ord, h.holder_ord, h.sort_name, h.duty_id))[1] AS raci,
            (array_agg(h.holder_type ORDER BY h.raci_ord, h.holder_ord, h.sort_name, h.duty_id))[1] AS holder_type,
            (array_agg(h.holder_name ORDER BY h.raci_ord, h.holder_ord, h.sort_name, h.duty_id))[1] AS holder_name
          FROM duty_topic dt JOIN (
            SELECT held.*,
              CASE raci WHEN 'RESPONSIBLE' THEN 0 WHEN 'ACCOUNTABLE' THEN 1 WHEN 'CONSULTED' THEN 2 ELSE 3 END AS raci_ord,
              CASE holder_type WHEN 'role' THEN 0 WHEN 'team' THEN 1 ELSE 2 END AS holder_ord,
              lower(COALESCE(holder_name, '')) COLLATE "C" AS sort_name
            FROM held) h ON h.duty_id = dt.duty_id
          GROUP BY dt.topic_id
        ),
        obligation_fact AS (
          SELECT topic_id, bool_or(required) AS required, min(due_date) AS due_date FROM (
            SELECT plt.topic_id, o.required, o.due_date FROM owed_lesson o JOIN pending_lesson_topic plt ON plt.lesson_id = o.lesson_id
            UNION ALL SELECT item_id, required, due_date FROM obligation WHERE item_type = 'topic'
            UNION ALL SELECT i.topic_id, o.required, o.due_date FROM obligation o JOIN owed_item i ON i.id = o.item_id WHERE o.item_type = 'item'
          ) owed GROUP BY topic_id
        ),
        person_mastery AS MATERIALIZED (
          SELECT m.topic_id, m.level FROM mastery m WHERE m.org_id = ${orgId} AND m.user_id = ${userId}
        ),
        blocking AS (
          SELECT r.topic_id,
            (array_agg(p.name ORDER BY lower(p.name) COLLATE "C", p.id) FILTER (WHERE ${topicVisible(sql, reader, "p")}))[1] AS name
          FROM topic_relations r
          JOIN topics p ON p.org_id = r.org_id AND p.id = r.related_topic_id
          LEFT JOIN person_mastery m ON m.topic_id = p.id
          WHERE r.org_id = ${orgId} AND r.kind = 'prerequisite' AND r.topic_id = ANY(ARRAY(SELECT id FROM candidate))
            AND ${topicLive(sql, "p")} AND COALESCE(m.level, 'NONE') <> 'MASTERED'
          GROUP BY r.topic_id
        )
        SELECT 'topic' AS kind, c.id, c.name, COALESCE(m.level, 'NONE') AS mastery,
          df.raci, COALESCE(df.senior, FALSE) AS senior, df.holder_type, df.holder_name,
          ofa.topic_id IS NOT NULL AS owed, COALESCE(ofa.required, FALSE) AS required, ofa.due_date,
          COALESCE(lf.started, FALSE) AS started, COALESCE(lf.retraining_due, FALSE) AS retraining_due,
          lc.lesson_id, b.topic_id IS NOT NULL AS blocked, b.name AS blocking_name
        FROM candidate c
        JOIN lesson_choice lc ON lc.topic_id = c.id
        LEFT JOIN duty_fact df ON df.topic_id = c.id
        LEFT JOIN obligation_fact ofa ON ofa.topic_id = c.id
        LEFT JOIN lesson_fact lf ON lf.topic_id = c.id
        LEFT JOIN person_mastery m ON m.topic_id = c.id
        LEFT JOIN blocking b ON b.topic_id = c.id
        UNION ALL
        SELECT 'lesson', l.id, l.title,
          CASE min(CASE COALESCE(m.level, 'NONE') WHEN 'NONE' THEN 0 WHEN 'PARTIAL' THEN 1 ELSE 2 END)
            WHEN 2 THEN 'MASTERED' WHEN 1 THEN 'PARTIAL' ELSE 'NONE' END,
          NULL, FALSE, NULL, NULL,
          TRUE, o.required, o.due_date,
          l.id IN (SELECT lesson_id FROM started_lesson), l.id IN (SELECT lesson_id FROM retrain_due),
          l.id, FALSE, NULL
        FROM owed_lesson o
        JOIN lessons l ON l.org_id = ${orgId} AND l.id = o.lesson_id
        LEFT JOIN pending_lesson_topic plt ON plt.lesson_id = l.id
        LEFT JOIN person_mastery m ON m.topic_id = plt.topic_id
        WHERE NOT EXISTS (
          SELECT 1 FROM pending_lesson_topic backing JOIN candidate c ON c.id = backing.topic_id WHERE backing.lesson_id = l.id)
        GROUP BY l.id, l.title, o.required, o.due_date`
    }

    return { person, facts } as const
  })
}) {}
