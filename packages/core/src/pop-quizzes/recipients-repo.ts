import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId, PopQuizId } from "@tks/domain/ids"
import type { PopQuizRecipientStatus } from "@tks/domain/pop-quiz"
import type { QuestionResult, QuizDifficulty, QuizStatus, StoredQuestion } from "@tks/domain/quiz"
import { questionWrites } from "../quizzes/question-writes-repo.js"

/** A recipient with their quiz: what preparing and answering it read. */
interface RecipientQuizRow {
  readonly recipient_id: string
  readonly user_id: string
  readonly status: PopQuizRecipientStatus
  readonly generation_status: QuizStatus
  readonly failure_reason: string | null
  readonly questions: ReadonlyArray<StoredQuestion> | null
  readonly started_at: Date | null
  readonly quiz_id: string
  readonly content_id: string
  readonly title: string
  readonly prompt: string
  readonly difficulty: QuizDifficulty
  readonly due_date: Date
}

/**
 * pop_quiz_recipients, one person's row at a time. Every write is
 * conditional on the state it moves from, so a job run again after a
 * takeover, or two requests at once, move a row once: questions are
 * written (and the person told) only while not READY (question-writes.ts),
 * a quiz starts only with its questions READY, and is answered only while
 * STARTED.
 */
export class PopQuizRecipientsRepo extends Effect.Service<PopQuizRecipientsRepo>()("@tks/core/PopQuizRecipientsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`r.id AS recipient_id, r.user_id, r.status, r.generation_status, r.failure_reason, r.questions, r.started_at,
      q.id AS quiz_id, q.content_id, q.title, q.prompt, q.difficulty, q.due_date`

    /** By recipient id (the "pop-quiz.prepare" job's subject). */
    const byId = (orgId: OrganizationId, recipientId: string) =>
      sql<RecipientQuizRow>`
        SELECT ${columns} FROM pop_quiz_recipients r JOIN pop_quizzes q ON q.org_id = r.org_id AND q.id = r.pop_quiz_id
        WHERE r.org_id = ${orgId} AND r.id = ${recipientId}`.pipe(Effect.map((rows) => rows[0]))

    /** A person's row of a quiz sent to them. */
    const ofPerson = (orgId: OrganizationId, quizId: PopQuizId, userId: string) =>
      sql<RecipientQuizRow>`
        SELECT ${columns} FROM pop_quiz_recipients r JOIN pop_quizzes q ON q.org_id = r.org_id AND q.id = r.pop_quiz_id
        WHERE r.org_id = ${orgId} AND r.pop_quiz_id = ${quizId} AND r.user_id = ${userId}`.pipe(Effect.map((rows) => rows[0]))

    const { markReady, markFailed, retryFailed } = questionWrites(sql, { table: "pop_quiz_recipients", key: "id", status: "generation_status" })

    /** not_started -> STARTED with the questions READY (a STARTED row stays as it is); the start time, or undefined. */
    const start = (orgId: OrganizationId, recipientId: string) =>
      sql<{ started_at: Date }>`
        UPDATE pop_quiz_recipients SET status = 'STARTED', started_at = COALESCE(started_at, now())
        WHERE org_id = ${orgId} AND id = ${recipientId} AND generation_status = 'READY' AND status IN ('not_started', 'STARTED')
        RETURNING started_at`.pipe(Effect.map((rows) => rows[0]?.started_at))

    /** STARTED -> COMPLETED with the scored answers; the completion time, or undefined when it was not STARTED. */
    const complete = (orgId: OrganizationId, recipientId: string, results: ReadonlyArray<QuestionResult>, score: number) =>
      sql<{ completed_at: Date }>`
        UPDATE pop_quiz_recipients SET status = 'COMPLETED', answers = ${JSON.stringify(results)}::jsonb, score = ${score},
          completed_at = now()
        WHERE org_id = ${orgId} AND id = ${recipientId} AND status = 'STARTED'
        RETURNING completed_at`.pipe(Effect.map((rows) => rows[0]?.completed_at))

    return { byId, ofPerson, markReady, markFailed, retryFailed, start, complete } as const
  })
}) {}
