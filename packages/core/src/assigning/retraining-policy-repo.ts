import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { AuditChange } from "@tks/domain/audit"
import type { RetrainingPolicyRequest } from "@tks/domain/assigning"
import { Caller } from "@tks/domain/caller"
import type { LessonId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { type CompletionMode, type RetrainingPolicy, retrainingPolicyOf } from "@tks/domain/retraining-policy"
import { Journal } from "../journal/journal.js"
import { AssigningPeopleRepo } from "./people-repo.js"
import { noSuchLesson, personalLesson } from "./refusals.js"

interface PolicyRow {
  readonly interval_days: number
  readonly completion_mode: CompletionMode
  readonly updated_at: Date
}

const stored = (row: PolicyRow | undefined) =>
  row === undefined ? null : { intervalDays: row.interval_days, completionMode: row.completion_mode, updatedAt: row.updated_at.toISOString() }

/** The policy's fields before and after, for the audit row (the journal leaves out those that did not change). */
const policyChanges = (before: RetrainingPolicy, after: RetrainingPolicy): Record<string, AuditChange> => ({
  retrainingType: { old: before.retrainingType, new: after.retrainingType },
  intervalDays: { old: before.intervalDays, new: after.intervalDays },
  completionMode: { old: before.completionMode, new: after.completionMode }
})

/**
 * PUT /v1/lessons/{id}/retraining-policy. Needs permission to
 * edit the lesson, which organization admins hold (the policy lets no one
 * else in). `recurring` sets the interval and mode (full_retake when left
 * out); `none` turns retraining off. Nothing else is touched: the policy
 * applies from each person's next completion (the completion sets
 * `enrollments.retrain_at` from the policy then in force). The audit row
 * (`lesson.retraining_policy_set`, on the lesson) has the old and new policy.
 */
export const makeSetRetrainingPolicy = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const people = yield* AssigningPeopleRepo
  const journal = yield* Journal

  return (access: Access, lessonId: LessonId, body: RetrainingPolicyRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const orgId = access.actor.organizationId
      const lesson = yield* people.lockLesson(access, lessonId)
      if (lesson === undefined) return yield* noSuchLesson()
      if (lesson.personal_for_user_id !== null) return yield* personalLesson("have a retraining policy")
      const [old] = yield* sql<PolicyRow>`
        SELECT interval_days, completion_mode, updated_at FROM lesson_retraining_policies
        WHERE org_id = ${orgId} AND lesson_id = ${lesson.id}`
      const before = retrainingPolicyOf(lesson.id, stored(old))
      let after: RetrainingPolicy
      if (body.retrainingType === "none") {
        yield* sql`DELETE FROM lesson_retraining_policies WHERE org_id = ${orgId} AND lesson_id = ${lesson.id}`
        after = retrainingPolicyOf(lesson.id, null)
      } else {
        const [row] = yield* sql<PolicyRow>`
          INSERT INTO lesson_retraining_policies (org_id, lesson_id, interval_days, completion_mode, updated_by, updated_at)
          VALUES (${orgId}, ${lesson.id}, ${body.intervalDays ?? 0}, ${body.completionMode ?? "full_retake"}, ${access.actor.userId}, now())
          ON CONFLICT (org_id, lesson_id) DO UPDATE SET interval_days = excluded.interval_days,
            completion_mode = excluded.completion_mode, updated_by = excluded.updated_by, updated_at = excluded.updated_at
          RETURNING interval_days, completion_mode, updated_at`
        if (row === undefined) return yield* Effect.dieMessage("the retraining policy was not written")
        after = retrainingPolicyOf(lesson.id, stored(row))
      }
      yield* journal.record({
        caller: Caller.person(access),
        orgId,
        action: "lesson.retraining_policy_set",
        targets: [{ type: "lesson", id: lesson.id }],
        changes: policyChanges(before, after)
      })
      return after
    }))
})
