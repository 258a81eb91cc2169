import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { learning } from "@tks/core/testing/learning"
import { callerMatrixOnce } from "./callers.js"
import { raw } from "./server.js"

/**
 * The learner acts' contract tests: @tks/core/testing/learning (Lea, Max
 * and Cody with enrollments, obligations and mastery) with the caller matrix
 * merged in, imported once per test file; and the rows the acts change, read
 * back from the database.
 */
export const learnersOnce = Effect.map(callerMatrixOnce(learning), (matrix) => {
  const token = (key: "lea" | "max" | "cody" | "sid") => {
    const value = matrix.result.tokens[key]
    if (value === undefined) throw new Error(`no token for ${key}`)
    return value
  }
  return { ...matrix, token }
})

export const startLesson = (lessonId: string, token: string | undefined) => raw("POST", `/v1/me/lessons/${lessonId}/start`, { token })

export const readQuiz = (enrollmentId: string, token: string | undefined) => raw("GET", `/v1/me/enrollments/${enrollmentId}/quiz`, { token })

export const submitAnswers = (enrollmentId: string, token: string | undefined, body: unknown) =>
  raw("POST", `/v1/me/enrollments/${enrollmentId}/quiz-attempts`, {
    token,
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

/** Polls the caller's quiz until it is no longer PENDING (the workers prepare it). */
export const settledQuiz = (enrollmentId: string, token: string) =>
  Effect.gen(function*() {
    for (;;) {
      const response = yield* readQuiz(enrollmentId, token)
      if (response.status !== 200 || response.json.status !== "PENDING") return response
      yield* Effect.sleep("50 millis")
    }
  })

const query = <A extends object>(run: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, run).pipe(Effect.orDie)

export const enrollmentRow = (id: string) =>
  query((sql) =>
    sql<{ status: string; started_at: Date | null; completed_at: Date | null; score: number | null; retrain_at: Date | null }>`
      SELECT status, started_at, completed_at, score, retrain_at FROM enrollments WHERE id = ${id}`
  ).pipe(Effect.map((rows) => rows[0]))

export const obligationRow = (id: string) =>
  query((sql) => sql<{ status: string; completed_at: Date | null }>`SELECT status, completed_at FROM obligations WHERE id = ${id}`)
    .pipe(Effect.map((rows) => rows[0]))

/** A person's mastery level of a topic ("NONE" without a row) and when it was proven. */
export const masteryOf = (userId: string, topicId: string) =>
  query((sql) =>
    sql<{ level: string; proven_at: Date }>`SELECT level, proven_at FROM mastery WHERE user_id = ${userId} AND topic_id = ${topicId}`
  ).pipe(Effect.map((rows) => rows[0] ?? { level: "NONE", proven_at: null }))

export const attemptsOf = (enrollmentId: string) =>
  query((sql) =>
    sql<{ id: string; score: number; passed: boolean; results_summary: string; questions: ReadonlyArray<{ answer: string | null }> }>`
      SELECT id, score, passed, results_summary, questions FROM quiz_attempts WHERE enrollment_id = ${enrollmentId}
      ORDER BY completed_at, id`
  )

/** A person's enrollments in a lesson, any status. */
export const enrollmentsOf = (userId: string, lessonId: string) =>
  query((sql) => sql<{ id: string; status: string }>`SELECT id, status FROM enrollments WHERE user_id = ${userId} AND lesson_id = ${lessonId}`)

/** The quiz.prepare jobs of an enrollment, oldest first. */
export const quizJobsOf = (enrollmentId: string) =>
  query((sql) =>
    sql<{ status: string }>`SELECT status FROM jobs WHERE kind = 'quiz.prepare' AND subject_id = ${enrollmentId} ORDER BY created_at, id`
  )
