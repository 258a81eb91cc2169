import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { UnassignRequest, UnassignResult } from "@tks/domain/assigning"
import { Caller } from "@tks/domain/caller"
import { Forbidden } from "@tks/domain/errors"
import type { LessonId } from "@tks/domain/ids"
import { unassignCancels } from "@tks/domain/obligation"
import type { Access } from "@tks/domain/policy"
import { Journal } from "../journal/journal.js"
import { admitNamed, distinct } from "./admission.js"
import { EnrollmentsRepo } from "./enrollments-repo.js"
import { obligationRef } from "./obligation-events.js"
import { ObligationsRepo } from "./obligations-repo.js"
import { AssigningPeopleRepo } from "./people-repo.js"
import { idList } from "./reach.js"
import { noSuchLesson, notInProgress } from "./refusals.js"

/** Kept on the obligations an unassignment cancels. */
const unassignReason = "Unassigned: the lesson was taken back"

/**
 * POST /v1/lessons/{id}/unassign, one transaction: the
 * named people's enrollments in progress are removed with their progress
 * and their active obligation on the lesson cancelled; completed
 * enrollments stay. 400 when none of them has it in progress; 403 when the
 * caller is not an organization admin and the lesson is required of one of
 * them (an active required obligation), and then nothing changes. Its audit
 * row names the lesson and the people whose enrollments it removed, with an
 * `obligation.cancelled` for each obligation it cancelled.
 */
export const makeUnassign = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const people = yield* AssigningPeopleRepo
  const enrollments = yield* EnrollmentsRepo
  const obligations = yield* ObligationsRepo
  const journal = yield* Journal

  return (access: Access, lessonId: LessonId, body: UnassignRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const orgId = access.actor.organizationId
      const lesson = yield* people.lockLesson(access, lessonId)
      if (lesson === undefined) return yield* noSuchLesson()
      const userIds = distinct(body.userIds)
      yield* admitNamed(access, yield* people.named(access, userIds, null), "any")

      const inProgress = yield* enrollments.inProgress(orgId, lesson.id, userIds)
      if (inProgress.size === 0) return yield* notInProgress()
      const active = yield* obligations.lockActive(orgId, "lesson", lesson.id, [...inProgress])
      const cancelled = active.filter((row) => unassignCancels(row, inProgress.has(row.user_id)))
      const required = cancelled.filter((row) => row.required).map((row) => row.user_id)
      if (access.reach !== "organization" && required.length > 0) {
        return yield* new Forbidden({
          message: `Only an organization admin may take back a lesson that is required of someone; it is required of ${idList(required)}. Nothing was changed.`
        })
      }

      const removed = yield* enrollments.removeInProgress(orgId, lesson.id, [...inProgress])
      const ended = yield* obligations.end(orgId, cancelled.map((row) => row.id), {
        status: "cancelled",
        reason: unassignReason,
        endedBy: access.actor.userId
      })
      const events = ended.map((row) => ({
        type: "obligation.cancelled" as const,
        data: { obligation: obligationRef(row), reason: unassignReason },
        personId: row.user_id
      }))
      yield* journal.record({
        caller: Caller.person(access),
        orgId,
        action: events[0]?.type ?? "lesson.unassigned",
        targets: [{ type: "lesson", id: lesson.id }, ...removed.map((row) => row.user_id).sort().map((id) => ({ type: "person", id }))],
        events
      })
      const result: UnassignResult = { lessonId: lesson.id, title: lesson.title, removedCount: removed.length }
      return result
    }))
})
