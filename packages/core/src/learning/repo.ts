import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { EnrollmentStatus } from "@tks/domain/training"
import type { EnrollmentId, LessonId, OrganizationId, UserId } from "@tks/domain/ids"
import type { QuestionResult, QuizDifficulty, QuizStatus, StoredQuestion } from "@tks/domain/quiz"
import { lessonReadable, type Reader } from "../knowledge/access.js"
import { newId } from "../common/ids.js"

/** A lesson as starting it sees it, with the caller's enrollment in progress if they have one. */
interface LessonToStart {
  readonly id: string
  readonly title: string
  readonly status: "open" | "closed"
  readonly personal_for_user_id: string | null
  readonly readable: boolean
  readonly open_enrollment_id: string | null
}

/** An enrollment as its learner and the training views read it. */
export interface EnrollmentRow {
  readonly id: string
  readonly lesson_id: string
  readonly title: string
  readonly status: EnrollmentStatus
  readonly enrolled_at: Date
  readonly started_at: Date | null
  readonly completed_at: Date | null
  readonly score: number | null
  readonly due_date: Date | null
}

export interface QuizRow {
  readonly enrollment_id: string
  readonly lesson_id: string
  readonly title: string
  readonly enrollment_status: EnrollmentStatus
  readonly status: QuizStatus
  readonly difficulty: QuizDifficulty
  readonly failure_reason: string | null
  readonly questions: ReadonlyArray<StoredQuestion> | null
  readonly attempts: number
}

/**
 * The learner's own records: every statement names the learner (`user_id`),
 * so another person's enrollment is simply absent.
 */
export class LearningRepo extends Effect.Service<LearningRepo>()("@tks/core/LearningRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const lessonToStart = (orgId: OrganizationId, userId: UserId, reader: Reader, lessonId: LessonId) =>
      sql<LessonToStart>`
        SELECT l.id, l.title, l.status, l.personal_for_user_id,
          (${lessonReadable(sql, reader, "l")} OR l.personal_for_user_id = ${userId}) AS readable,
          (SELECT e.id FROM enrollments e
           WHERE e.org_id = l.org_id AND e.user_id = ${userId} AND e.lesson_id = l.id AND e.status = 'in_progress') AS open_enrollment_id
        FROM lessons l WHERE l.org_id = ${orgId} AND l.id = ${lessonId}`.pipe(Effect.map((rows) => rows[0]))

    /** Marks an enrollment started; starting again keeps the first time. The start time when it starts now. */
    const markStarted = (orgId: OrganizationId, enrollmentId: string) =>
      sql<{ started_at: Date }>`
        UPDATE enrollments SET started_at = now() WHERE org_id = ${orgId} AND id = ${enrollmentId} AND started_at IS NULL
        RETURNING started_at`.pipe(Effect.map((rows) => rows[0]?.started_at))

    /**
     * A self-enrollment, started now. Null when another request enrolled the
     * person meanwhile (at most one enrollment in progress per person and lesson).
     */
    const insertEnrollment = (orgId: OrganizationId, userId: UserId, lessonId: LessonId) =>
      sql<{ id: string }>`
        INSERT INTO enrollments (org_id, id, user_id, lesson_id, started_at)
        VALUES (${orgId}, ${newId("enrollment")}, ${userId}, ${lessonId}, now())
        ON CONFLICT (org_id, user_id, lesson_id) WHERE status = 'in_progress' DO NOTHING
        RETURNING id`.pipe(Effect.map((rows) => rows[0]?.id ?? null))

    /** The due date is that of the person's active obligation for the lesson. */
    const enrollment = (orgId: OrganizationId, userId: UserId, enrollmentId: string) =>
      sql<EnrollmentRow>`
        SELECT e.id, e.lesson_id, l.title, e.status, e.enrolled_at, e.started_at, e.completed_at, e.score,
          (SELECT o.due_date FROM obligations o
           WHERE o.org_id = e.org_id AND o.user_id = e.user_id AND o.item_type = 'lesson' AND o.item_id = e.lesson_id
             AND o.status = 'active') AS due_date
        FROM enrollments e JOIN lessons l ON l.org_id = e.org_id AND l.id = e.lesson_id
        WHERE e.org_id = ${orgId} AND e.id = ${enrollmentId} AND e.user_id = ${userId}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * The learner's quiz for an enrollment. `lock` holds the enrollment row
     * for the transaction, so attempts at one quiz are scored one at a time
     * (a pass completes the enrollment exactly once).
     */
    const quiz = (orgId: OrganizationId, userId: UserId, enrollmentId: EnrollmentId, lock: boolean) =>
      sql<QuizRow>`
        SELECT e.id AS enrollment_id, e.lesson_id, l.title, e.status AS enrollment_status,
          coalesce(q.status, 'PENDING') AS status, coalesce(q.difficulty, 'MODERATE') AS difficulty,
          q.failure_reason, q.questions,
          (SELECT count(*)::int FROM quiz_attempts a WHERE a.org_id = e.org_id AND a.enrollment_id = e.id) AS attempts
        FROM enrollments e
        JOIN lessons l ON l.org_id = e.org_id AND l.id = e.lesson_id
        LEFT JOIN enrollment_quizzes q ON q.org_id = e.org_id AND q.enrollment_id = e.id
        WHERE e.org_id = ${orgId} AND e.id = ${enrollmentId} AND e.user_id = ${userId}
        ${lock ? sql`FOR UPDATE OF e` : sql``}`.pipe(Effect.map((rows) => rows[0]))

    /** Every attempt is kept (quiz results keep every attempt). */
    const insertAttempt = (input: {
      readonly orgId: OrganizationId
      readonly userId: UserId
      readonly enrollmentId: EnrollmentId
      readonly score: number
      readonly passed: boolean
      readonly resultsSummary: string
      readonly questions: ReadonlyArray<QuestionResult>
    }) =>
      sql<{ id: string; completed_at: Date }>`
        INSERT INTO quiz_attempts (org_id, id, enrollment_id, user_id, score, passed, results_summary, questions)
        VALUES (${input.orgId}, ${newId("quizAttempt")}, ${input.enrollmentId}, ${input.userId}, ${input.score},
          ${input.passed}, ${input.resultsSummary}, ${JSON.stringify(input.questions)}::jsonb)
        RETURNING id, completed_at`.pipe(Effect.map((rows) => rows[0]!))

    return { lessonToStart, markStarted, insertEnrollment, enrollment, quiz, insertAttempt } as const
  })
}) {}
