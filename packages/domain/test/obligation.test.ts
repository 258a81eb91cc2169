import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  AssignmentRequest,
  ConfirmReviewRequest,
  DueDateRequest,
  KnowledgeObligationRequest,
  ObligationEndRequest,
  RetrainingAssignmentRequest,
  RetrainingPolicyRequest,
  UnassignRequest
} from "@tks/domain/assigning"
import { initialDue, noDeadline } from "@tks/domain/due-date"
import { actProblem, mergeAssignment, type ObligationAct, ObligationStatus, statusAfter, unassignCancels } from "@tks/domain/obligation"

const acts: ReadonlyArray<ObligationAct> = ["waive", "cancel", "setDueDate", "confirmReview"]

describe("the obligation state machine", () => {
  it("waive and cancel end an active obligation; the due-date acts keep it active", () => {
    expect(statusAfter).toEqual({ waive: "waived", cancel: "cancelled", setDueDate: "active", confirmReview: "active" })
  })

  it("every act is refused unless the obligation is active: completed, cancelled and waived are final", () => {
    for (const status of ObligationStatus.literals.filter((s) => s !== "active")) {
      for (const act of acts) {
        expect(actProblem(act, { status, needsReview: true }), `${act} ${status}`).toContain(`This obligation is ${status}`)
      }
    }
    for (const act of ["waive", "cancel", "setDueDate"] as const) {
      expect(actProblem(act, { status: "active", needsReview: false }), act).toBeUndefined()
    }
  })

  it("confirm-review needs needsReview", () => {
    expect(actProblem("confirmReview", { status: "active", needsReview: false })).toMatch(/not waiting for review/)
    expect(actProblem("confirmReview", { status: "active", needsReview: true })).toBeUndefined()
  })

  it("unassigning cancels an active obligation only when the person has the lesson in progress", () => {
    expect(unassignCancels({ status: "active" }, true)).toBe(true)
    expect(unassignCancels({ status: "active" }, false)).toBe(false)
    expect(unassignCancels({ status: "waived" }, true)).toBe(false)
    expect(unassignCancels(undefined, true)).toBe(false)
  })
})

describe("merging an assignment into an active obligation", () => {
  it("required wins over optional", () => {
    const optional = { required: false, due: initialDue(noDeadline) }
    expect(mergeAssignment(optional, { required: true, due: noDeadline }).required).toBe(true)
    const required = { required: true, due: initialDue(noDeadline) }
    expect(mergeAssignment(required, { required: false, due: noDeadline }).required).toBe(true)
  })

  it("keeps the obligation's other fields", () => {
    const owed = { id: "obl_1", required: false, due: initialDue(noDeadline) }
    expect(mergeAssignment(owed, { required: true, due: noDeadline }).id).toBe("obl_1")
  })
})

const problems = <A, I>(schema: Schema.Schema<A, I>, input: unknown): string =>
  Either.match(Schema.decodeUnknownEither(schema)(input), { onLeft: (error) => error.message, onRight: () => "accepted" })

describe("the assigning request bodies", () => {
  it("assignments: audience with the list it needs, and only that list", () => {
    expect(problems(AssignmentRequest, { audience: "everyone" })).toBe("accepted")
    expect(problems(AssignmentRequest, { audience: "teams", teamIds: ["t"] })).toBe("accepted")
    expect(problems(AssignmentRequest, { audience: "users", userIds: ["u"], due: { type: "days", days: 7 } })).toBe("accepted")
    expect(problems(AssignmentRequest, { audience: "all" })).not.toBe("accepted")
    expect(problems(AssignmentRequest, {})).not.toBe("accepted")
    expect(problems(AssignmentRequest, { audience: "teams" })).toMatch(/teamIds is required with audience teams/)
    expect(problems(AssignmentRequest, { audience: "users" })).toMatch(/userIds is required with audience users/)
    expect(problems(AssignmentRequest, { audience: "everyone", teamIds: ["t"] })).toMatch(/teamIds is allowed only with audience teams/)
    expect(problems(AssignmentRequest, { audience: "teams", teamIds: ["t"], userIds: ["u"] })).toMatch(/userIds is allowed only/)
  })

  it("assignments: teamIds up to 50, userIds up to 500, neither empty", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `id_${i}`)
    expect(problems(AssignmentRequest, { audience: "teams", teamIds: ids(50) })).toBe("accepted")
    expect(problems(AssignmentRequest, { audience: "teams", teamIds: ids(51) })).toMatch(/teamIds must hold 1 to 50/)
    expect(problems(AssignmentRequest, { audience: "teams", teamIds: [] })).toMatch(/teamIds must hold 1 to 50/)
    expect(problems(AssignmentRequest, { audience: "users", userIds: ids(500) })).toBe("accepted")
    expect(problems(AssignmentRequest, { audience: "users", userIds: ids(501) })).toMatch(/userIds must hold 1 to 500/)
    expect(problems(AssignmentRequest, { audience: "users", userIds: ["a\u0000"] })).toMatch(/NUL/)
    expect(problems(UnassignRequest, { userIds: [] })).toMatch(/userIds must hold 1 to 500/)
    expect(problems(UnassignRequest, {})).not.toBe("accepted")
  })

  it("retraining policy: interval 1 to 3650 and mode with recurring only; none turns it off", () => {
    expect(problems(RetrainingPolicyRequest, { retrainingType: "recurring", intervalDays: 180, completionMode: "full_retake" })).toBe("accepted")
    expect(problems(RetrainingPolicyRequest, { retrainingType: "recurring", intervalDays: 180 })).toBe("accepted")
    expect(problems(RetrainingPolicyRequest, { retrainingType: "none" })).toBe("accepted")
    expect(problems(RetrainingPolicyRequest, { retrainingType: "none", intervalDays: null, completionMode: null })).toBe("accepted")
    expect(problems(RetrainingPolicyRequest, { retrainingType: "recurring" })).toMatch(/intervalDays is required/)
    expect(problems(RetrainingPolicyRequest, { retrainingType: "recurring", intervalDays: 0 })).toMatch(/1 to 3650/)
    expect(problems(RetrainingPolicyRequest, { retrainingType: "recurring", intervalDays: 3651 })).toMatch(/1 to 3650/)
    expect(problems(RetrainingPolicyRequest, { retrainingType: "none", intervalDays: 30 })).toMatch(/intervalDays is allowed only/)
    expect(problems(RetrainingPolicyRequest, { retrainingType: "none", completionMode: "full_retake" })).toMatch(/completionMode is allowed only/)
    expect(problems(RetrainingPolicyRequest, { retrainingType: "recurring", intervalDays: 9, completionMode: "sometimes" })).not.toBe("accepted")
    expect(problems(RetrainingPolicyRequest, { retrainingType: "weekly" })).not.toBe("accepted")
  })

  it("knowledge obligations and retraining assignments: the required fields, days 1 to 3650, reason up to 2000 characters", () => {
    const knowledge = { userId: "u", itemType: "topic", itemId: "t" }
    expect(problems(KnowledgeObligationRequest, knowledge)).toBe("accepted")
    expect(problems(KnowledgeObligationRequest, { ...knowledge, itemType: "lesson" })).not.toBe("accepted")
    expect(problems(KnowledgeObligationRequest, { ...knowledge, dueDays: 0 })).toMatch(/1 to 3650/)
    expect(problems(KnowledgeObligationRequest, { ...knowledge, reason: "x".repeat(2000) })).toBe("accepted")
    expect(problems(KnowledgeObligationRequest, { ...knowledge, reason: "😀".repeat(2000) })).toBe("accepted")
    expect(problems(KnowledgeObligationRequest, { ...knowledge, reason: "x".repeat(2001) })).toMatch(/at most 2000/)
    const retraining = { userId: "u", lessonId: "l", dueDays: 30, retrainingResetsClock: true }
    expect(problems(RetrainingAssignmentRequest, retraining)).toBe("accepted")
    const { dueDays: _, ...noDays } = retraining
    expect(problems(RetrainingAssignmentRequest, noDays)).not.toBe("accepted")
    const { retrainingResetsClock: __, ...noClock } = retraining
    expect(problems(RetrainingAssignmentRequest, noClock)).not.toBe("accepted")
  })

  it("waive and cancel need a non-blank reason; due-date takes a date with an offset or null; confirm-review may leave it out", () => {
    expect(problems(ObligationEndRequest, { reason: "Left the project" })).toBe("accepted")
    expect(problems(ObligationEndRequest, {})).not.toBe("accepted")
    expect(problems(ObligationEndRequest, { reason: "  " })).toMatch(/must not be blank/)
    expect(problems(ObligationEndRequest, { reason: "x".repeat(2001) })).toMatch(/at most 2000/)
    expect(problems(DueDateRequest, { dueDate: null })).toBe("accepted")
    expect(problems(DueDateRequest, { dueDate: "2026-12-01T10:00:00+01:00" })).toBe("accepted")
    expect(problems(DueDateRequest, { dueDate: "2026-12-01" })).toMatch(/UTC offset/)
    expect(problems(DueDateRequest, {})).not.toBe("accepted")
    expect(problems(ConfirmReviewRequest, {})).toBe("accepted")
    expect(problems(ConfirmReviewRequest, { resolvedDueDate: null })).toBe("accepted")
    expect(problems(ConfirmReviewRequest, { resolvedDueDate: "next week" })).toMatch(/UTC offset/)
  })
})
