import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId, PopQuizId, UserId } from "@tks/domain/ids"
import type { PopQuizRecipientStatus } from "@tks/domain/pop-quiz"
import { newestFirst } from "../common/keyset.js"

interface PopQuizRow {
  readonly id: string
  readonly title: string
  readonly prompt: string
  readonly due_date: Date
  readonly created_at: Date
}

export interface PopQuizPageRow extends PopQuizRow {
  readonly created_us: string
  readonly announcement_id: string | null
  readonly sender_id: string | null
  readonly sender_name: string | null
  readonly recipient_count: number
  readonly completed_count: number
}

interface RecipientProgress {
  readonly status: PopQuizRecipientStatus
  readonly completed_at: Date | null
  readonly score: number | null
}

export interface MyPopQuizRow extends PopQuizRow, RecipientProgress {}

interface RecipientRow extends RecipientProgress {
  readonly user_id: string
  readonly name: string
  readonly email: string
}

/** Pop quiz reads, each one statement. */
export class PopQuizzesRepo extends Effect.Service<PopQuizzesRepo>()("@tks/core/PopQuizzesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`q.id, q.title, q.prompt, q.due_date, q.created_at`

    /**
     * One page of the organization's quizzes, newest first (pop_quizzes_newest,
     * or pop_quizzes_by_sender with `sentBy`), each with its counts from its
     * recipients' primary key, in the same statement. The sender is named
     * while their record exists.
     */
    const page = (input: {
      readonly orgId: OrganizationId
      readonly sentBy: UserId | null
      readonly after: readonly [string, string] | null
      readonly limit: number
    }) =>
      sql<PopQuizPageRow>`
        SELECT ${columns}, ${newestFirst.column(sql, "q")}, q.announcement_id,
          s.id AS sender_id, s.name AS sender_name, counts.recipient_count, counts.completed_count
        FROM pop_quizzes q
        LEFT JOIN users s ON s.org_id = q.org_id AND s.id = q.sent_by
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS recipient_count, (count(*) FILTER (WHERE r.status = 'COMPLETED'))::int AS completed_count
          FROM pop_quiz_recipients r WHERE r.org_id = q.org_id AND r.pop_quiz_id = q.id
        ) counts
        WHERE q.org_id = ${input.orgId}
          ${input.sentBy === null ? sql`` : sql`AND q.sent_by = ${input.sentBy}`}
          ${newestFirst.after(sql, "q", input.after)}
        ORDER BY q.created_at DESC, q.id DESC
        LIMIT ${input.limit}`

    /** The quizzes sent to a person, newest first, with their own progress. */
    const sentTo = (orgId: OrganizationId, userId: UserId) =>
      sql<MyPopQuizRow>`
        SELECT ${columns}, r.status, r.completed_at, r.score
        FROM pop_quiz_recipients r
        JOIN pop_quizzes q ON q.org_id = r.org_id AND q.id = r.pop_quiz_id
        WHERE r.org_id = ${orgId} AND r.user_id = ${userId}
        ORDER BY q.created_at DESC, q.id DESC`

    /** The quiz, when it exists and (with `recipient`) was sent to that person. */
    const find = (orgId: OrganizationId, quizId: PopQuizId, recipient: UserId | null) =>
      sql<PopQuizRow>`
        SELECT ${columns} FROM pop_quizzes q
        WHERE q.org_id = ${orgId} AND q.id = ${quizId}
          ${
        recipient === null ? sql`` : sql`AND EXISTS (
            SELECT 1 FROM pop_quiz_recipients r WHERE r.org_id = q.org_id AND r.pop_quiz_id = q.id AND r.user_id = ${recipient})`
      }`.pipe(Effect.map((rows) => rows[0]))

    /** Its recipients by name (or only `only`), with each one's progress. */
    const recipients = (orgId: OrganizationId, quizId: PopQuizId, only: UserId | null) =>
      sql<RecipientRow>`
        SELECT r.user_id, u.name, u.email, r.status, r.completed_at, r.score
        FROM pop_quiz_recipients r
        JOIN users u ON u.org_id = r.org_id AND u.id = r.user_id
        WHERE r.org_id = ${orgId} AND r.pop_quiz_id = ${quizId}
          ${only === null ? sql`` : sql`AND r.user_id = ${only}`}
        ORDER BY u.sort_name, u.id`

    return { page, sentTo, find, recipients } as const
  })
}) {}
