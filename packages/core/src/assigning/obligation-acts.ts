import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ConfirmReviewRequest, DueDateRequest, ObligationEndRequest } from "@tks/domain/assigning"
import { confirmDue, type DueState, overrideDue, parseOffsetDateTime } from "@tks/domain/due-date"
import { type ObligationId, OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"
import { actProblem, type Obligation, type ObligationAct } from "@tks/domain/obligation"
import type { Access } from "@tks/domain/policy"
import { Journal } from "../journal/journal.js"
import { NotificationOutbox } from "../notifications/outbox.js"
import { isoOrNull } from "../common/time.js"
import { obligationAct, obligationRef } from "./obligation-events.js"
import { dueColumns, dueOf, type ObligationRow, obligationView } from "./obligation-rows.js"
import { ObligationsRepo } from "./obligations-repo.js"
import { AssigningPeopleRepo } from "./people-repo.js"
import { noSuchObligation, stateRefusal } from "./refusals.js"

const instant = (text: string | null | undefined): Date | null => (text == null ? null : parseOffsetDateTime(text) ?? null)

/**
 * The acts on one obligation, organization admins only (the
 * policies let no one else in): waive, cancel, set or remove a due date by
 * hand, confirm a date waiting for review. Each is one transaction that
 * locks the obligation, asks the state machine (domain/obligation.ts)
 * whether the act may happen (400 otherwise), writes, records the act
 * (its audit row and event), and for a lesson tells the person. An obligation of another organization, or none, is 404.
 */
export const makeObligationActs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const obligations = yield* ObligationsRepo
  const people = yield* AssigningPeopleRepo
  const outbox = yield* NotificationOutbox
  const journal = yield* Journal

  /** Locks the obligation and checks the act may happen to it. */
  const admitted = (access: Access, id: ObligationId, act: ObligationAct) =>
    Effect.gen(function*() {
      const row = yield* obligations.lockById(access.actor.organizationId, id)
      if (row === undefined) return yield* noSuchObligation()
      const problem = actProblem(act, { status: row.status, needsReview: row.needs_review })
      if (problem !== undefined) return yield* stateRefusal(problem)
      return row
    })

  /** Tells the person about their lesson obligation; other obligations tell nobody. */
  const tellAboutLesson = (access: Access, row: ObligationRow, notice: (title: string) => Notice) =>
    Effect.gen(function*() {
      if (row.item_type !== "lesson") return
      const orgId = OrganizationId.make(access.actor.organizationId)
      const title = yield* people.lessonTitle(orgId, row.item_id)
      yield* outbox.tell({ orgId, userIds: [row.user_id], notice: notice(title) })
    })

  const end = (act: "waive" | "cancel") => (access: Access, id: ObligationId, body: ObligationEndRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* admitted(access, id, act)
      const [ended] = yield* obligations.end(access.actor.organizationId, [id], {
        status: act === "waive" ? "waived" : "cancelled",
        reason: body.reason,
        endedBy: access.actor.userId
      })
      if (ended === undefined) return yield* Effect.dieMessage("a locked active obligation did not end")
      const data = { obligation: obligationRef(ended), reason: body.reason }
      yield* journal.record(obligationAct(
        access,
        ended,
        act === "waive" ? { type: "obligation.waived", data, personId: ended.user_id } : { type: "obligation.cancelled", data, personId: ended.user_id },
        { status: { old: "active", new: ended.status }, reason: { new: body.reason } }
      ))
      yield* tellAboutLesson(access, ended, (title) => ({
        _tag: act === "waive" ? "ObligationWaived" : "ObligationCancelled",
        lessonId: ended.item_id,
        title,
        reason: body.reason
      }))
      const view: Obligation = obligationView(ended)
      return view
    }))

  /** Writes a new due-date state of an admitted obligation, records the change, and answers the obligation. */
  const saveDue = (access: Access, row: ObligationRow, due: DueState) =>
    Effect.gen(function*() {
      yield* obligations.saveMerged(access.actor.organizationId, [{
        id: row.id,
        required: row.required,
        due,
        reason: null,
        retrainingResetsClock: null
      }])
      const saved: ObligationRow = { ...row, ...dueColumns(due) }
      const previousDueDate = isoOrNull(row.due_date)
      yield* journal.record(obligationAct(access, saved, {
        type: "obligation.due_date_changed",
        data: { obligation: obligationRef(saved), previousDueDate },
        personId: saved.user_id
      }, {
        dueDate: { old: previousDueDate, new: isoOrNull(saved.due_date) },
        dueDateOverridden: { old: row.due_date_overridden, new: saved.due_date_overridden },
        needsReview: { old: row.needs_review, new: saved.needs_review }
      }))
      return saved
    })

  /** Sets (a date) or removes (null) the override; later assignments never move a date set this way. */
  const setDueDate = (access: Access, id: ObligationId, body: DueDateRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const row = yield* admitted(access, id, "setDueDate")
      const saved = yield* saveDue(access, row, overrideDue(dueOf(row), instant(body.dueDate)))
      yield* tellAboutLesson(access, saved, (title) => ({
        _tag: "DueDateChanged",
        lessonId: saved.item_id,
        title,
        dueDate: isoOrNull(saved.due_date)
      }))
      const view: Obligation = obligationView(saved)
      return view
    }))

  /** Confirms the date of an obligation flagged needsReview (left out or null: no due date). */
  const confirmReview = (access: Access, id: ObligationId, body: ConfirmReviewRequest) =>
    sql.withTransaction(Effect.gen(function*() {
      const row = yield* admitted(access, id, "confirmReview")
      const saved = yield* saveDue(access, row, confirmDue(dueOf(row), instant(body.resolvedDueDate)))
      const view: Obligation = obligationView(saved)
      return view
    }))

  return { waive: end("waive"), cancel: end("cancel"), setDueDate, confirmReview } as const
})
