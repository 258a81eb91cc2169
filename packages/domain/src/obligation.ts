import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { type AskedDue, type DueState, mergeDue } from "./due-date.js"

/**
 * Obligations: what a person owes (a lesson, a topic or an item), and the
 * state machine (docs/domain.md, Obligations). Pure: core reads a row, asks these rules what
 * may happen, and writes the answer.
 */

export const ObligationStatus = Schema.Literal("active", "completed", "cancelled", "waived")
export type ObligationStatus = typeof ObligationStatus.Type

export const ObligationItemType = Schema.Literal("lesson", "topic", "item")
export type ObligationItemType = typeof ObligationItemType.Type

/** Which act made an obligation: an assignment, a knowledge obligation, a retraining assignment. */
export type ObligationKind = "assignment" | "knowledge" | "retraining"

/** An obligation, as every assigning act on one answers. */
export const Obligation = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  itemType: ObligationItemType,
  itemId: Schema.String,
  status: ObligationStatus,
  required: Schema.Boolean,
  dueDate: Schema.NullOr(Timestamp).annotations({ description: "The due date the person sees; null: no deadline" }),
  dueDateOverridden: Schema.Boolean.annotations({ description: "true when set by hand over the computed one" }),
  needsReview: Schema.Boolean.annotations({
    description: "true when what the due date counts from changed and someone should confirm the new date"
  })
}).annotations({ identifier: "Obligation" })
export type Obligation = typeof Obligation.Type

/**
 * The acts that move an existing obligation . Unassigning
 * and assigning again are acts on the lesson and its people, not on one
 * obligation: see `unassignCancels` and `mergeAssignment`.
 */
export type ObligationAct = "waive" | "cancel" | "setDueDate" | "confirmReview"

/** Where each act leads: waive and cancel end the obligation; the due-date acts keep it active. */
export const statusAfter: Readonly<Record<ObligationAct, ObligationStatus>> = {
  waive: "waived",
  cancel: "cancelled",
  setDueDate: "active",
  confirmReview: "active"
}

const actName: Readonly<Record<ObligationAct, string>> = {
  waive: "waived",
  cancel: "cancelled",
  setDueDate: "given a due date",
  confirmReview: "confirmed"
}

/**
 * Why `act` may not happen to an obligation in this state (the 400's
 * message), or undefined when it may. Every act needs an active obligation
 * (waived, cancelled and completed are final); confirm-review also needs
 * the obligation to be flagged `needsReview`.
 */
export const actProblem = (
  act: ObligationAct,
  obligation: { readonly status: ObligationStatus; readonly needsReview: boolean }
): string | undefined => {
  if (obligation.status !== "active") {
    return `This obligation is ${obligation.status}; only an active obligation can be ${actName[act]}`
  }
  if (act === "confirmReview" && !obligation.needsReview) {
    return "This obligation's due date is not waiting for review (needsReview is false); there is nothing to confirm"
  }
  return undefined
}

/**
 * Unassigning a lesson cancels the person's active obligation on
 * it when they have the lesson in progress; the caller must be an
 * organization admin when that obligation is required.
 */
export const unassignCancels = (obligation: { readonly status: ObligationStatus } | undefined, inProgress: boolean): boolean =>
  inProgress && obligation?.status === "active"

/** What merging needs of an active obligation. */
export interface Owed {
  readonly required: boolean
  readonly due: DueState
}

/**
 * Assigning the same thing again while an obligation is active merges into
 * it: required wins over optional, and the due dates
 * merge by `mergeDue` (the earlier wins unless set by hand).
 */
export const mergeAssignment = <O extends Owed>(owed: O, asked: { readonly required: boolean; readonly due: AskedDue }): O => ({
  ...owed,
  required: owed.required || asked.required,
  due: mergeDue(owed.due, asked.due)
})
