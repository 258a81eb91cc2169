import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { EnrollmentId, OrganizationId, UserId } from "@tks/domain/ids"
import type { QuestionResult } from "@tks/domain/quiz"
import type { ObligationItemType } from "@tks/domain/training"
import { newestFirstBy } from "../common/keyset.js"
import type { EnrollmentRow } from "../learning/repo.js"
import { direct } from "@tks/db/direct"

export interface ObligationRow {
  readonly id: string
  readonly item_type: ObligationItemType
  readonly item_id: string
  readonly item_name: string
  readonly required: boolean
  readonly status: "active" | "completed"
  readonly due_date: Date | null
  readonly overdue: boolean
  readonly created_at: Date
}

export interface PersonRow {
  readonly id: string
  readonly name: string
  readonly email: string
}

export interface QuizAttemptRow {
  readonly id: string
  readonly completed_at: Date
  readonly score: number
  readonly results_summary: string
  readonly questions: ReadonlyArray<QuestionResult>
  readonly created_us: string
}

/** Quiz attempts newest first (quiz_attempts_newest). */
export const newestAttemptFirst = newestFirstBy("completed_at")

/**
 * A person's training records, each list in one statement.
 * Names and titles are read whatever the reader could open (the
 * person owes them regardless).
 */
export class TrainingRepo extends Effect.Service<TrainingRepo>()("@tks/core/TrainingRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Anyone with a record in the organization, at any status. */
    const person = (orgId: OrganizationId, userId: UserId) =>
      sql<PersonRow>`SELECT u.id, u.name, u.email FROM users u WHERE u.org_id = ${orgId} AND u.id = ${userId}`.pipe(
        Effect.map((rows) => rows[0])
      )

    /** Active and completed obligations, newest first (obligations_by_user); overdue by the database's clock. */
    const obligations = (orgId: OrganizationId, userId: UserId) =>
      direct(sql, sql<ObligationRow>`
        SELECT o.id, o.item_type, o.item_id, COALESCE(l.title, t.name, i.name, '') AS item_name,
          o.required, o.status, o.due_date,
          (o.status = 'active' AND o.due_date IS NOT NULL AND o.due_date < now()) AS overdue,
          o.created_at
        FROM obligations o
        LEFT JOIN lessons l ON o.item_type = 'lesson' AND l.org_id = o.org_id AND l.id = o.item_id
        LEFT JOIN topics t ON o.item_type = 'topic' AND t.org_id = o.org_id AND t.id = o.item_id
        LEFT JOIN items i ON o.item_type = 'item' AND i.org_id = o.org_id AND i.id = o.item_id
        WHERE o.org_id = ${orgId} AND o.user_id = ${userId} AND o.status IN ('active', 'completed')
        ORDER BY o.created_at DESC, o.id DESC`)

    /**
     * Enrollments newest first (enrollments_newest). The due date is the
     * person's obligation for the lesson: the active one, else the latest.
     */
    const enrollments = (orgId: OrganizationId, userId: UserId) =>
      direct(sql, sql<EnrollmentRow>`
        SELECT e.id, e.lesson_id, l.title, e.status, e.enrolled_at, e.started_at, e.completed_at, e.score,
          (SELECT o.due_date FROM obligations o
            WHERE o.org_id = e.org_id AND o.user_id = e.user_id AND o.item_type = 'lesson' AND o.item_id = e.lesson_id
            ORDER BY (o.status = 'active') DESC, o.created_at DESC, o.id DESC
            LIMIT 1) AS due_date
        FROM enrollments e
        JOIN lessons l ON l.org_id = e.org_id AND l.id = e.lesson_id
        WHERE e.org_id = ${orgId} AND e.user_id = ${userId}
        ORDER BY e.enrolled_at DESC, e.id DESC`)

    /** Whose enrollment this is (undefined when the organization has none by that id). */
    const enrollmentLearner = (orgId: OrganizationId, enrollmentId: EnrollmentId) =>
      sql<{ readonly user_id: string }>`
        SELECT e.user_id FROM enrollments e WHERE e.org_id = ${orgId} AND e.id = ${enrollmentId}`.pipe(
        Effect.map((rows) => rows[0]?.user_id)
      )

    /** One page of an enrollment's attempts, newest first. */
    const attemptPage = (
      orgId: OrganizationId,
      enrollmentId: EnrollmentId,
      key: readonly [string, string] | null,
      limit: number
    ) =>
      sql<QuizAttemptRow>`
        SELECT a.id, a.completed_at, a.score, a.results_summary, a.questions, ${newestAttemptFirst.column(sql, "a")}
        FROM quiz_attempts a
        WHERE a.org_id = ${orgId} AND a.enrollment_id = ${enrollmentId} ${newestAttemptFirst.after(sql, "a", key)}
        ORDER BY a.completed_at DESC, a.id DESC
        LIMIT ${limit}`

    return { person, obligations, enrollments, enrollmentLearner, attemptPage } as const
  })
}) {}
