import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { QuestionChapter, QuestionItem } from "@tks/adapters/questions/port"
import type { OrganizationId } from "@tks/domain/ids"
import type { QuizDifficulty, QuizStatus } from "@tks/domain/quiz"
import { itemLive } from "../knowledge/access.js"
import { questionWrites } from "./question-writes-repo.js"

/** What preparing one enrollment's quiz reads: the quiz row and the lesson's material. */
interface QuizMaterial {
  readonly status: QuizStatus
  readonly difficulty: QuizDifficulty
  readonly title: string
  readonly chapters: ReadonlyArray<QuestionChapter>
  readonly items: ReadonlyArray<QuestionItem>
}

/**
 * The enrollment quizzes' rows (`enrollment_quizzes`): inserted PENDING with
 * the enrollment, written READY by the "quiz.prepare" job, or FAILED when it
 * gives up. Writes never touch a READY quiz, so a job run again after a
 * takeover cannot replace questions a learner may already be answering.
 */
export class QuizzesRepo extends Effect.Service<QuizzesRepo>()("@tks/core/QuizzesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** One PENDING quiz per enrollment, set-based; an enrollment that has one keeps it. */
    const insertPending = (orgId: OrganizationId, enrollmentIds: ReadonlyArray<string>, difficulty: QuizDifficulty) =>
      sql`
        INSERT INTO enrollment_quizzes (org_id, enrollment_id, status, difficulty)
        SELECT ${orgId}, e.id, 'PENDING', ${difficulty} FROM unnest(${[...enrollmentIds]}::text[]) AS e(id)
        ON CONFLICT (org_id, enrollment_id) DO NOTHING`

    /**
     * The quiz row and the lesson's material in one statement: the published
     * content pieces in lesson order, each piece's chapters in sequence (its
     * body as one chapter when it has none yet), and the live items that
     * those pieces are evidence for, in the order the lesson first cites them
     * (an item without a body described by the passage it rests on).
     * Undefined when the enrollment (or its quiz) is gone.
     */
    const material = (orgId: OrganizationId, enrollmentId: string) =>
      sql<{
        status: QuizStatus
        difficulty: QuizDifficulty
        title: string
        chapters: ReadonlyArray<QuestionChapter> | null
        items: ReadonlyArray<{ name: string; kind: QuestionItem["kind"]; body: string | null; topicId: string }> | null
      }>`
        WITH quiz AS (
          SELECT q.status, q.difficulty, l.title, l.id AS lesson_id, l.org_id
          FROM enrollment_quizzes q
          JOIN enrollments e ON e.org_id = q.org_id AND e.id = q.enrollment_id
          JOIN lessons l ON l.org_id = e.org_id AND l.id = e.lesson_id
          WHERE q.org_id = ${orgId} AND q.enrollment_id = ${enrollmentId}
        ), pieces AS (
          SELECT lc.position, c.id, c.body FROM quiz
          JOIN lesson_content lc ON lc.org_id = quiz.org_id AND lc.lesson_id = quiz.lesson_id
          JOIN content c ON c.org_id = lc.org_id AND c.id = lc.content_id AND c.status = 'published'
        )
        SELECT quiz.status, quiz.difficulty, quiz.title,
          (SELECT json_agg(json_build_object('headline', x.headline, 'text', x.text) ORDER BY x.position, x.sequence)
           FROM (
             SELECT p.position, ch.sequence, ch.headline, ch.text FROM pieces p
             JOIN chapters ch ON ch.org_id = ${orgId} AND ch.content_id = p.id
             UNION ALL
             SELECT p.position, 0, NULL, p.body FROM pieces p
             WHERE p.body IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chapters ch WHERE ch.org_id = ${orgId} AND ch.content_id = p.id)
           ) x) AS chapters,
          (SELECT json_agg(json_build_object('name', y.name, 'kind', y.kind, 'body', y.body, 'topicId', y.topic_id)
                           ORDER BY y.first_position, y.first_char, y.name, y.id)
           FROM (
             SELECT i.id, i.name, i.kind, i.topic_id, min(p.position) AS first_position,
               -- An item without a body is described by the first passage of the lesson it rests on.
               coalesce(i.body, (array_agg(ev.quote ORDER BY p.position, ev.char_start, ev.id) FILTER (WHERE ev.quote IS NOT NULL))[1]) AS body,
               min(coalesce(ev.char_start, 0)) AS first_char
             FROM pieces p
             JOIN evidence ev ON ev.org_id = ${orgId} AND ev.content_id = p.id
             JOIN items i ON i.org_id = ev.org_id AND i.id = ev.item_id
             WHERE ${itemLive(sql, "i")}
             GROUP BY i.id, i.name, i.kind, i.body, i.topic_id
           ) y) AS items
        FROM quiz`.pipe(
        Effect.map(([row]): QuizMaterial | undefined =>
          row === undefined ? undefined : {
            status: row.status,
            difficulty: row.difficulty,
            title: row.title,
            chapters: row.chapters ?? [],
            items: row.items ?? []
          }
        )
      )

    const { markReady, markFailed, retryFailed } = questionWrites(sql, { table: "enrollment_quizzes", key: "enrollment_id", status: "status" })

    return { insertPending, material, markReady, markFailed, retryFailed } as const
  })
}) {}
