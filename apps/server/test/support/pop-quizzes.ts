import { Effect } from "effect"
import { elsewhere, quizco } from "@tks/core/testing/pop-quizzes"
import { eventually } from "../../../../packages/core/test/support/jobs.js"
import { post, query, setUpCallers } from "./assigners.js"
import { once } from "./once.js"

/** quizco and elsewhere (@tks/core/testing/pop-quizzes) with their callers, imported once per test file. */
export const quizzersOnce = once(setUpCallers(quizco, elsewhere))

export const sendQuiz = (token: string | undefined, body: unknown) => post("/v1/pop-quizzes", token, body)

/** What an organization has of pop quizzes: to show that a refused call created nothing. */
export const popQuizState = (orgId: string) =>
  query((sql) =>
    sql<{ quizzes: number; recipients: number; jobs: number }>`
      SELECT (SELECT count(*)::int FROM pop_quizzes WHERE org_id = ${orgId}) AS quizzes,
        (SELECT count(*)::int FROM pop_quiz_recipients WHERE org_id = ${orgId}) AS recipients,
        (SELECT count(*)::int FROM jobs WHERE org_id = ${orgId} AND kind = 'pop-quiz.prepare') AS jobs`.pipe(
      Effect.map((rows) => rows[0]!)
    )
  )

export interface RecipientRecord {
  readonly id: string
  readonly user_id: string
  readonly status: string
  readonly generation_status: string
  readonly questions: ReadonlyArray<{ readonly question: string; readonly choices: ReadonlyArray<string> }> | null
  readonly failure_reason: string | null
}

/** A quiz's recipient rows as stored, by user id. */
export const recipientsOf = (quizId: string) =>
  query((sql) =>
    sql<RecipientRecord>`
      SELECT id, user_id, status, generation_status, questions, failure_reason
      FROM pop_quiz_recipients WHERE pop_quiz_id = ${quizId} ORDER BY user_id`
  )

/** Waits until every recipient of the quiz has questions READY (or FAILED). */
export const preparedRecipients = (quizId: string) =>
  eventually(Effect.map(recipientsOf(quizId), (rows) => rows.every((row) => row.generation_status !== "PENDING"))).pipe(
    Effect.zipRight(recipientsOf(quizId))
  )

/** The outbox rows of a person: `${channel} ${kind}`, with the notice. */
export const notificationsOf = (userId: string) =>
  query((sql) =>
    sql<{ channel: string; kind: string; notice: { popQuizId?: string; title: string; dueDate: string | null } }>`
      SELECT channel, kind, notice FROM notifications WHERE user_id = ${userId} ORDER BY channel, created_at`
  )
