import { SqlClient, type Statement } from "@effect/sql"
import { Effect } from "effect"
import type { EnrollmentId, OrganizationId, UserId } from "@tks/domain/ids"
import { obligationColumns, type ObligationRow } from "../assigning/obligation-rows.js"
import { heldDuties } from "../duties/holdings.js"
import { itemLive } from "../knowledge/access.js"

type Sql = SqlClient.SqlClient

/**
 * What an attempt changes beyond itself, each one
 * set-based statement in the submitting transaction, all at its `now()`:
 *
 * - a pass completes the enrollment (score, completed_at, and retrain_at
 *   from the lesson's retraining policy then in force) and the person's
 *   active obligations for the lesson;
 * - mastery of the topics the lesson covers (those its published pieces are
 *   evidence for, through live items) is raised: to MASTERED by a pass, to
 *   PARTIAL by a failed attempt where it was NONE; it is never lowered;
 * - the person's active topic and item obligations on those topics complete
 *   when mastery now meets what is expected of them (below).
 *
 * The completing statements answer what they completed, for the act's events.
 */

/** The topics lesson `lessonId` covers. */
const coveredTopics = (sql: Sql, orgId: OrganizationId, lessonId: string): Statement.Fragment =>
  sql`SELECT DISTINCT i.topic_id FROM lesson_content lc
      JOIN content c ON c.org_id = lc.org_id AND c.id = lc.content_id AND c.status = 'published'
      JOIN evidence ev ON ev.org_id = lc.org_id AND ev.content_id = lc.content_id
      JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id
      WHERE lc.org_id = ${orgId} AND lc.lesson_id = ${lessonId} AND ${itemLive(sql, "i")}`

export class CompletionRepo extends Effect.Service<CompletionRepo>()("@tks/core/CompletionRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const returned = (alias: string) => sql.literal(obligationColumns.map((column) => `${alias}.${column}`).join(", "))

    /** The enrollment completed with `score`; retrain_at = completion + the policy's interval, when the lesson has one. True when it was in progress. */
    const completeEnrollment = (orgId: OrganizationId, enrollmentId: EnrollmentId, score: number) =>
      sql<{ id: string }>`
        UPDATE enrollments e SET status = 'completed', completed_at = now(), score = ${score},
          retrain_at = now() + (SELECT p.interval_days FROM lesson_retraining_policies p
                                WHERE p.org_id = e.org_id AND p.lesson_id = e.lesson_id) * interval '1 day'
        WHERE e.org_id = ${orgId} AND e.id = ${enrollmentId} AND e.status = 'in_progress'
        RETURNING e.id`.pipe(Effect.map((rows) => rows.length === 1))

    const completeLessonObligations = (orgId: OrganizationId, userId: UserId, lessonId: string) =>
      sql<ObligationRow>`
        UPDATE obligations o SET status = 'completed', completed_at = now(), updated_at = now()
        WHERE o.org_id = ${orgId} AND o.user_id = ${userId} AND o.item_type = 'lesson' AND o.item_id = ${lessonId} AND o.status = 'active'
        RETURNING ${returned("o")}`

    /** MASTERED on every covered topic (proven now), or PARTIAL where the person had NONE. */
    const raiseMastery = (orgId: OrganizationId, userId: UserId, lessonId: string, level: "MASTERED" | "PARTIAL") =>
      sql`
        INSERT INTO mastery (org_id, user_id, topic_id, level, proven_at)
        SELECT ${orgId}, ${userId}, covered.topic_id, ${level}, now() FROM (${coveredTopics(sql, orgId, lessonId)}) covered
        ON CONFLICT (org_id, user_id, topic_id) DO UPDATE SET level = EXCLUDED.level, proven_at = EXCLUDED.proven_at
        WHERE EXCLUDED.level = 'MASTERED' OR mastery.level = 'NONE'`

    /**
     * Active topic and item obligations on the covered topics whose expected
     * mastery is met now. Expected (`expectedMastery` in
     * @tks/domain/learning-queue, as the queue reads it): MASTERED when a
     * duty the person holds (duties/holdings.ts) on what the obligation
     * names or what contains it is RESPONSIBLE or ACCOUNTABLE or is held at
     * a tier senior to its MIN_TIER, or when no such duty exists; PARTIAL
     * when only CONSULTED or INFORMED duties do. An item's mastery is its
     * topic's.
     */
    const completeSatisfiedObligations = (orgId: OrganizationId, userId: UserId, lessonId: string) =>
      sql<ObligationRow>`
        WITH held AS MATERIALIZED (${heldDuties(sql, { orgId, userId })})
        UPDATE obligations o SET status = 'completed', completed_at = now(), updated_at = now()
        FROM (
          SELECT ob.id, coalesce(i.topic_id, ob.item_id) AS topic_id FROM obligations ob
          LEFT JOIN items i ON ob.item_type = 'item' AND i.org_id = ob.org_id AND i.id = ob.item_id
          WHERE ob.org_id = ${orgId} AND ob.user_id = ${userId} AND ob.status = 'active' AND ob.item_type IN ('topic', 'item')
        ) target
        JOIN mastery m ON m.org_id = ${orgId} AND m.user_id = ${userId} AND m.topic_id = target.topic_id
        WHERE o.org_id = ${orgId} AND o.id = target.id
          AND target.topic_id IN (${coveredTopics(sql, orgId, lessonId)})
          AND m.level <> 'NONE'
          AND (m.level = 'MASTERED' OR (
            -- PARTIAL meets an obligation that only CONSULTED or INFORMED duties reach.
            WITH RECURSIVE item_chain AS (
              SELECT it.id, it.parent_item_id FROM items it WHERE o.item_type = 'item' AND it.org_id = o.org_id AND it.id = o.item_id
              UNION
              SELECT parent.id, parent.parent_item_id FROM item_chain JOIN items parent ON parent.org_id = o.org_id AND parent.id = item_chain.parent_item_id
            ), obligation_scope (entity_type, entity_id) AS (
              SELECT 'ITEM', id FROM item_chain
              UNION ALL SELECT 'TOPIC', t.id FROM topics t WHERE t.org_id = o.org_id AND t.id = target.topic_id
              UNION ALL SELECT 'SPACE', t.space_id FROM topics t WHERE t.org_id = o.org_id AND t.id = target.topic_id
              UNION ALL SELECT 'CATEGORY', s.category_id FROM topics t JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
                WHERE t.org_id = o.org_id AND t.id = target.topic_id
            ), reaching AS (
              -- The duties the person holds (duties/holdings.ts) on what the obligation names or what contains it.
              SELECT h.raci, h.senior FROM held h JOIN obligation_scope s ON s.entity_type = h.entity_type AND s.entity_id = h.entity_id
            )
            SELECT EXISTS (SELECT 1 FROM reaching)
              AND NOT EXISTS (SELECT 1 FROM reaching WHERE raci IN ('RESPONSIBLE', 'ACCOUNTABLE') OR senior)
          ))
        RETURNING ${returned("o")}`

    return { completeEnrollment, completeLessonObligations, raiseMastery, completeSatisfiedObligations } as const
  })
}) {}
