import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RetrainingPolicyRequest } from "@tks/domain/assigning"
import type { LessonId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { type CompletionMode, retrainingPolicyOf } from "@tks/domain/retraining-policy"
import { AssigningPeopleRepo } from "./people-repo.js"
import { noSuchLesson, personalLesson } from "./refusals.js"

interface PolicyRow {
  readonly interval_days: number
  readonly completion_mode: CompletionMode
  readonly updated_at: Date
}

/**
 * PUT /v1/lessons/{id}/retraining-policy. Needs permission to
 * edit the lesson, which organization admins hold (the policy lets no one
 * else in). `recurring` sets the interval and mode (full_retake when left
 * out); `none` turns retraining off. Nothing else is touched: the policy
 * applies from each person's next completion (the completion sets
 * `enrollments.retrain_at` from the policy then in force).
 */
export const makeSetRetrainingPolicy = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const people = yield* AssigningPeopleRepo

  return (access: Access, lessonId: LessonId, body: RetrainingPolicyRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const orgId = access.actor.organizationId
      const lesson = yield* people.lockLesson(access, lessonId)
      if (lesson === undefined) return yield* noSuchLesson()
      if (lesson.personal_for_user_id !== null) return yield* personalLesson("have a retraining policy")
      if (body.retrainingType === "none") {
        yield* sql`DELETE FROM lesson_retraining_policies WHERE org_id = ${orgId} AND lesson_id = ${lesson.id}`
        return retrainingPolicyOf(lesson.id, null)
      }
      const [row] = yield* sql<PolicyRow>`
        INSERT INTO lesson_retraining_policies (org_id, lesson_id, interval_days, completion_mode, updated_by, updated_at)
        VALUES (${orgId}, ${lesson.id}, ${body.intervalDays ?? 0}, ${body.completionMode ?? "full_retake"}, ${access.actor.userId}, now())
        ON CONFLICT (org_id, lesson_id) DO UPDATE SET interval_days = excluded.interval_days,
          completion_mode = excluded.completion_mode, updated_by = excluded.updated_by, updated_at = excluded.updated_at
        RETURNING interval_days, completion_mode, updated_at`
      if (row === undefined) return yield* Effect.dieMessage("the retraining policy was not written")
      return retrainingPolicyOf(lesson.id, {
        intervalDays: row.interval_days,
        completionMode: row.completion_mode,
        updatedAt: row.updated_at.toISOString()
      })
    }))
})
