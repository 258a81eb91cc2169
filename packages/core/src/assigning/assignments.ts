import { Effect } from "effect"
import type { AssignmentRequest, AssignmentResult } from "@tks/domain/assigning"
import { type AskedDue, askedDue, initialDue } from "@tks/domain/due-date"
import { Caller } from "@tks/domain/caller"
import { type LessonId, OrganizationId } from "@tks/domain/ids"
import { mergeAssignment } from "@tks/domain/obligation"
import type { Access } from "@tks/domain/policy"
import { newId } from "../common/ids.js"
import { isoOrNull } from "../common/time.js"
import { admitAudience } from "./admission.js"
import { enrollmentsCreated } from "./enrollment-events.js"
import { lessonActs } from "./lesson-acts.js"
import { obligationsCreated } from "./obligation-events.js"
import { dueColumns, dueOf, type ObligationRow } from "./obligation-rows.js"
import type { MergedObligation } from "./obligations-repo.js"
import { closedLesson, nobodyReached, noSuchLesson, personalLesson } from "./refusals.js"

/** The merged obligation, or null when the merge changed nothing. */
const merged = (row: ObligationRow, asked: { readonly required: boolean; readonly due: AskedDue }): MergedObligation | null => {
  const before = { required: row.required, due: dueOf(row) }
  const after = mergeAssignment(before, asked)
  const same = after.required === before.required &&
    JSON.stringify(dueColumns(after.due)) === JSON.stringify(dueColumns(before.due))
  return same ? null : { id: row.id, required: after.required, due: after.due, reason: null, retrainingResetsClock: null }
}

/** Groups people by the due date each will be told. */
const byDueDate = (entries: ReadonlyArray<readonly [string, Date | null]>) => {
  const groups = new Map<string | null, Array<string>>()
  for (const [userId, date] of entries) {
    const key = isoOrNull(date)
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [userId])
    else group.push(userId)
  }
  return groups
}

/**
 * POST /v1/lessons/{id}/assignments. One transaction, a fixed
 * number of statements however many people (20,000 in under 10 s with the
 * outbox rows, see scripts/bench):
 *
 * 1. the lesson, readable by the caller (else 404), locked against the other
 *    acts on it; closed or single-person lessons are refused (400);
 * 2. the audience, checked (admission.ts), then everyone in it who can take
 *    the lesson (nobody: 400), with what they already have of it;
 * 3. people who never had it are enrolled (they are the `assigned` list),
 *    their quizzes prepared, and they are told by email and text (last);
 * 4. a required lesson obligation for everyone enrolled now (new enrollees
 *    and people with it in progress), merged into an active one where there
 *    is one (required wins, the earlier date wins unless set by
 *    hand). People who completed it are left as they were, save an active
 *    obligation merging;
 * 5. the act's audit row (on the lesson) with an `enrollment.created` per
 *    enrollment and an `obligation.created` per obligation it wrote, all in
 *    one journal write.
 */
export const makeAssign = Effect.gen(function*() {
  const { enrollWithQuizzes, journal, obligations, outbox, people, sql } = yield* lessonActs

  return (access: Access, lessonId: LessonId, body: AssignmentRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const { actor } = access
      const orgId = OrganizationId.make(actor.organizationId)
      const lesson = yield* people.lockLesson(access, lessonId)
      if (lesson === undefined) return yield* noSuchLesson()
      if (lesson.status === "closed") return yield* closedLesson("be assigned")
      if (lesson.personal_for_user_id !== null) return yield* personalLesson("be assigned")

      const audience = yield* admitAudience(people, access, body, { lessonId: lesson.id, rule: "can-take-lesson" })
      const targets = yield* people.targets(orgId, lesson.id, audience)
      if (targets.length === 0) return yield* nobodyReached()

      const newcomers = targets.filter((t) => !t.in_progress && !t.completed).map((t) => t.user_id)
      const enrolled = yield* enrollWithQuizzes({ orgId, lessonId: lesson.id, userIds: newcomers, assignedBy: actor.userId })

      const asked = { required: true, due: askedDue(body.due, lesson.now) }
      const active = yield* obligations.lockActive(orgId, "lesson", lesson.id, targets.map((t) => t.user_id))
      const owing = new Set(active.map((row) => row.user_id))
      // Each person's due date after this act, to tell them.
      const dueOfPerson = new Map<string, Date | null>()
      const changed: Array<MergedObligation> = []
      for (const row of active) {
        const merge = merged(row, asked)
        dueOfPerson.set(row.user_id, merge === null ? row.due_date : merge.due.dueDate)
        if (merge !== null) changed.push(merge)
      }
      yield* obligations.saveMerged(orgId, changed)
      // Everyone enrolled now owes it; someone who only completed it is left as they were.
      const fresh = targets
        .filter((t) => !owing.has(t.user_id) && !(t.completed && !t.in_progress))
        .map((t) => ({ id: newId("obligation"), userId: t.user_id }))
      const due = initialDue(asked.due)
      const written = yield* obligations.insert(orgId, {
        itemType: "lesson",
        itemId: lesson.id,
        kind: "assignment",
        required: true,
        due,
        reason: null,
        assignedBy: actor.userId,
        retrainingResetsClock: null
      }, fresh)
      for (const row of fresh) dueOfPerson.set(row.userId, due.dueDate)

      // Someone a concurrent act gave an active obligation meanwhile was skipped: only the rows written are events.
      const writtenIds = new Set(written)
      const owers = written.length === fresh.length ? fresh : fresh.filter((row) => writtenIds.has(row.id))
      const events = enrollmentsCreated(enrolled, lesson).concat(
        obligationsCreated(owers, { item_type: "lesson", item_id: lesson.id, required: true, due_date: due.dueDate })
      )
      yield* journal.record({
        caller: Caller.person(access),
        orgId,
        action: events[0]?.type ?? "lesson.assigned",
        targets: [{ type: "lesson", id: lesson.id }],
        events
      })

      const told = byDueDate(enrolled.map((row) => [row.user_id, dueOfPerson.get(row.user_id) ?? null] as const))
      for (const [dueDate, userIds] of told) {
        yield* outbox.tell({ orgId, userIds, notice: { _tag: "LessonAssigned", lessonId: lesson.id, title: lesson.title, dueDate } })
      }

      const result: AssignmentResult = {
        lessonId: lesson.id,
        title: lesson.title,
        assigned: [...enrolled]
          .sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0))
          .map((row) => ({ userId: row.user_id, enrollmentId: row.id }))
      }
      return result
    }))
})
