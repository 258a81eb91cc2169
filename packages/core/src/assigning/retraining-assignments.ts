import { Effect } from "effect"
import type { RetrainingAssignmentRequest } from "@tks/domain/assigning"
import { Caller } from "@tks/domain/caller"
import { dueInDays, initialDue } from "@tks/domain/due-date"
import { OrganizationId } from "@tks/domain/ids"
import { mergeAssignment, type Obligation } from "@tks/domain/obligation"
import type { Access } from "@tks/domain/policy"
import { newId } from "../common/ids.js"
import { isoOrNull } from "../common/time.js"
import { admitNamed } from "./admission.js"
import { enrollmentsCreated } from "./enrollment-events.js"
import { lessonActs } from "./lesson-acts.js"
import { obligationChanges, obligationsCreated } from "./obligation-events.js"
import { dueColumns, dueOf, type ObligationRow, obligationView } from "./obligation-rows.js"
import { closedLesson, noSuchLesson, personalLesson } from "./refusals.js"

/**
 * POST /v1/retraining-assignments, one transaction: the person
 * (known, in reach, able to take the lesson) is enrolled again unless they
 * have the lesson in progress (their quiz prepared), owes it again with a
 * due date `dueDays` from now, merged into an active lesson obligation
 * where there is one, and is told. A closed lesson (nobody could start it,
 * so the obligation could never be met) or a single-person lesson cannot be
 * retrained (400), refused as an assignment refuses them. The audit row
 * names the obligation, the person and the lesson, with an
 * `enrollment.created` and an `obligation.created` for what it wrote
 * (`obligation.merged` when it only merged).
 */
export const makeAssignRetraining = Effect.gen(function*() {
  const { enrollWithQuizzes, journal, obligations, outbox, people, sql } = yield* lessonActs

  return (access: Access, body: RetrainingAssignmentRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const { actor } = access
      const orgId = OrganizationId.make(actor.organizationId)
      const lesson = yield* people.lockLesson(access, body.lessonId)
      if (lesson === undefined) return yield* noSuchLesson()
      if (lesson.status === "closed") return yield* closedLesson("be retrained")
      if (lesson.personal_for_user_id !== null) return yield* personalLesson("be retrained")
      yield* admitNamed(access, yield* people.named(access, [body.userId], lesson.id), "can-take-lesson")

      const enrolled = yield* enrollWithQuizzes({ orgId, lessonId: lesson.id, userIds: [body.userId], assignedBy: actor.userId })

      const asked = { required: true, due: dueInDays(body.dueDays, "assignment", lesson.now) }
      const reason = body.reason ?? null
      const [active] = yield* obligations.lockActive(orgId, "lesson", lesson.id, [body.userId])
      let owed: ObligationRow
      let before: ObligationRow | undefined = active
      if (active !== undefined) {
        const merged = mergeAssignment({ required: active.required, due: dueOf(active) }, asked)
        yield* obligations.saveMerged(orgId, [{
          id: active.id,
          required: merged.required,
          due: merged.due,
          reason,
          retrainingResetsClock: body.retrainingResetsClock
        }])
        owed = { ...active, required: merged.required, ...dueColumns(merged.due) }
      } else {
        const id = newId("obligation")
        const due = initialDue(asked.due)
        yield* obligations.insert(orgId, {
          itemType: "lesson",
          itemId: lesson.id,
          kind: "retraining",
          required: true,
          due,
          reason,
          assignedBy: actor.userId,
          retrainingResetsClock: body.retrainingResetsClock
        }, [{ id, userId: body.userId }])
        // The row written (or, had another writer got there first, the active one it left).
        const [written] = yield* obligations.lockActive(orgId, "lesson", lesson.id, [body.userId])
        if (written === undefined) return yield* Effect.dieMessage("the retraining obligation was neither written nor found")
        owed = written
        // Another writer's obligation in place of ours: this act created none.
        if (written.id !== id) before = written
      }
      const events = enrollmentsCreated(enrolled, lesson).concat(
        before === undefined ? obligationsCreated([{ id: owed.id, userId: owed.user_id }], owed) : []
      )
      yield* journal.record({
        caller: Caller.person(access),
        orgId,
        action: events[0]?.type ?? "obligation.merged",
        targets: [{ type: "obligation", id: owed.id }, { type: "person", id: body.userId }, { type: "lesson", id: lesson.id }],
        changes: obligationChanges(before, owed, reason),
        events
      })

      yield* outbox.tell({
        orgId,
        userIds: [body.userId],
        notice: { _tag: "RetrainingAssigned", lessonId: lesson.id, title: lesson.title, dueDate: isoOrNull(owed.due_date), reason }
      })
      const view: Obligation = obligationView(owed)
      return view
    }))
})
