import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { StoredQuestion } from "@tks/domain/quiz"

/** Where a kind of quiz keeps its questions: the table, its key column and its PENDING/READY/FAILED column. */
interface QuestionsTable {
  readonly table: "enrollment_quizzes" | "pop_quiz_recipients"
  readonly key: "enrollment_id" | "id"
  readonly status: "status" | "generation_status"
}

/**
 * The writes of a quiz's questions, the same for an enrollment's quiz and a
 * pop-quiz recipient's: none ever touches questions that are READY, so a job
 * run again after a takeover cannot replace questions someone may already be
 * answering, and only the run that made them READY learns it did (to tell
 * the person once).
 */
export const questionWrites = (sql: SqlClient.SqlClient, where: QuestionsTable) => {
  const table = sql(where.table)
  const key = sql(where.key)
  const status = sql(where.status)

  /** Questions written: READY. True when this call made them so. */
  const markReady = (orgId: OrganizationId, id: string, questions: ReadonlyArray<StoredQuestion>, generator: string) =>
    sql<{ key: string }>`
      UPDATE ${table} SET ${status} = 'READY', questions = ${JSON.stringify(questions)}::jsonb,
        generator = ${generator}, failure_reason = NULL, ready_at = now()
      WHERE org_id = ${orgId} AND ${key} = ${id} AND ${status} <> 'READY'
      RETURNING ${key} AS key`.pipe(Effect.map((rows) => rows.length > 0))

  /** Given up on: FAILED with the reason (unless READY). */
  const markFailed = (orgId: OrganizationId, id: string, reason: string) =>
    sql`
      UPDATE ${table} SET ${status} = 'FAILED', failure_reason = ${reason}
      WHERE org_id = ${orgId} AND ${key} = ${id} AND ${status} <> 'READY'`.pipe(Effect.asVoid)

  /** FAILED back to PENDING, to be written again; true when it was FAILED. */
  const retryFailed = (orgId: OrganizationId, id: string) =>
    sql<{ key: string }>`
      UPDATE ${table} SET ${status} = 'PENDING', failure_reason = NULL
      WHERE org_id = ${orgId} AND ${key} = ${id} AND ${status} = 'FAILED'
      RETURNING ${key} AS key`.pipe(Effect.map((rows) => rows.length > 0))

  return { markReady, markFailed, retryFailed } as const
}
