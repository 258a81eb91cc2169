import { Schema } from "effect"
import { Count } from "./common.js"
import { DueDays, DueSpec, OffsetDateTime } from "./due-date.js"
import { ObligationId } from "./ids.js"
import { characterCount, teamIdsMax } from "./intake.js"
import { CompletionMode, RetrainingType } from "./retraining-policy.js"
import { storableText } from "./text.js"

/**
 * The request and answer bodies of the assigning acts. Every
 * field rule of the acts is checked at decode, so a broken one is a 400
 * VALIDATION_ERROR naming the field; what needs the database (unknown
 * people, reach, duties) is the service's.
 */

export const userIdsMax = 500
export const reasonMaxCharacters = 2000

const Id = storableText(Schema.String)

/** A list of 1 to `max` ids; a repeated id counts once. */
const Ids = (field: string, max: number, what: string) =>
  Schema.Array(Id).pipe(
    Schema.filter((ids) => (ids.length >= 1 && ids.length <= max) || `${field} must hold 1 to ${max} ${what}`, {
      jsonSchema: { minItems: 1, maxItems: max }
    })
  )

const Reason = storableText(Schema.String).pipe(
  Schema.filter((text) => characterCount(text) <= reasonMaxCharacters || `reason must be at most ${reasonMaxCharacters} characters`, {
    jsonSchema: { maxLength: reasonMaxCharacters }
  })
)

const RequiredReason = Reason.pipe(
  Schema.filter((text) => text.trim().length > 0 || "reason must not be blank", { jsonSchema: { minLength: 1 } })
).annotations({ description: `Why; up to ${reasonMaxCharacters} characters; kept on the obligation` })

const OptionalReason = Schema.optional(Reason.annotations({ description: `Up to ${reasonMaxCharacters} characters; kept on the obligation` }))

export const AssignmentAudience = Schema.Literal("everyone", "teams", "users")
export type AssignmentAudience = typeof AssignmentAudience.Type

export const audienceProblems = {
  teamsNeedTeamIds: "teamIds is required with audience teams",
  teamIdsOnlyWithTeams: "teamIds is allowed only with audience teams",
  usersNeedUserIds: "userIds is required with audience users",
  userIdsOnlyWithUsers: "userIds is allowed only with audience users"
} as const

/**
 * Who an act reaches: audience with teamIds or userIds. Lesson
 * assignments and pop quizzes take the same fields under the same rules
 * (`audienceRule`).
 */
export const AudienceFields = {
  audience: AssignmentAudience.annotations({ description: "everyone, teams (the teams in teamIds) or users (the people in userIds)" }),
  teamIds: Schema.optional(Ids("teamIds", teamIdsMax, "team ids").annotations({ description: `With audience teams only; 1 to ${teamIdsMax}` })),
  userIds: Schema.optional(Ids("userIds", userIdsMax, "user ids").annotations({ description: `With audience users only; 1 to ${userIdsMax}` }))
}

/** An audience as a request gives it. */
export interface AudienceRequest {
  readonly audience: AssignmentAudience
  readonly teamIds?: ReadonlyArray<string> | undefined
  readonly userIds?: ReadonlyArray<string> | undefined
}

/** teamIds with teams only and required there; userIds likewise with users (filters a body with `AudienceFields`). */
export const audienceProblem = (body: AudienceRequest) => {
  if (body.audience === "teams" && body.teamIds === undefined) return { path: ["teamIds"], message: audienceProblems.teamsNeedTeamIds }
  if (body.audience !== "teams" && body.teamIds !== undefined) return { path: ["teamIds"], message: audienceProblems.teamIdsOnlyWithTeams }
  if (body.audience === "users" && body.userIds === undefined) return { path: ["userIds"], message: audienceProblems.usersNeedUserIds }
  if (body.audience !== "users" && body.userIds !== undefined) return { path: ["userIds"], message: audienceProblems.userIdsOnlyWithUsers }
  return true
}

/** POST /v1/lessons/{id}/assignments. */
export const AssignmentRequest = Schema.Struct({ ...AudienceFields, due: Schema.optional(DueSpec) }).pipe(
  Schema.filter(audienceProblem, { jsonSchema: {} })
).annotations({
  identifier: "AssignmentRequest"
})
export type AssignmentRequest = typeof AssignmentRequest.Type

export const AssignmentResult = Schema.Struct({
  lessonId: Schema.String,
  title: Schema.String,
  assigned: Schema.Array(Schema.Struct({ userId: Schema.String, enrollmentId: Schema.String })).annotations({
    description: "Each newly reached person and their new enrollment; people who already had the lesson are not listed"
  })
}).annotations({ identifier: "AssignmentResult" })
export type AssignmentResult = typeof AssignmentResult.Type

/** POST /v1/lessons/{id}/unassign. */
export const UnassignRequest = Schema.Struct({
  userIds: Ids("userIds", userIdsMax, "user ids").annotations({ description: `1 to ${userIdsMax} people` })
}).annotations({ identifier: "UnassignRequest" })
export type UnassignRequest = typeof UnassignRequest.Type

export const UnassignResult = Schema.Struct({
  lessonId: Schema.String,
  title: Schema.String,
  removedCount: Count.annotations({ description: "In-progress enrollments removed" })
}).annotations({ identifier: "UnassignResult" })
export type UnassignResult = typeof UnassignResult.Type

export const retrainingPolicyProblems = {
  recurringNeedsInterval: "intervalDays is required with retrainingType recurring",
  intervalOnlyWithRecurring: "intervalDays is allowed only with retrainingType recurring",
  modeOnlyWithRecurring: "completionMode is allowed only with retrainingType recurring"
} as const

/** PUT /v1/lessons/{id}/retraining-policy. null counts as left out (the GET answers null for a lesson without retraining). */
export const RetrainingPolicyRequest = Schema.Struct({
  retrainingType: RetrainingType.annotations({ description: "recurring, or none (turns retraining off)" }),
  intervalDays: Schema.optional(Schema.NullOr(DueDays.annotations({ description: "With recurring only; 1 to 3650" }))),
  completionMode: Schema.optional(Schema.NullOr(CompletionMode.annotations({
    description: "With recurring only: full_retake (default) or changed_material"
  })))
}).pipe(
  Schema.filter((body) => {
    const recurring = body.retrainingType === "recurring"
    const interval = body.intervalDays ?? null
    const mode = body.completionMode ?? null
    if (recurring && interval === null) return { path: ["intervalDays"], message: retrainingPolicyProblems.recurringNeedsInterval }
    if (!recurring && interval !== null) return { path: ["intervalDays"], message: retrainingPolicyProblems.intervalOnlyWithRecurring }
    if (!recurring && mode !== null) return { path: ["completionMode"], message: retrainingPolicyProblems.modeOnlyWithRecurring }
    return true
  }, { jsonSchema: {} })
).annotations({ identifier: "RetrainingPolicyRequest" })
export type RetrainingPolicyRequest = typeof RetrainingPolicyRequest.Type

/** POST /v1/knowledge-obligations. */
export const KnowledgeObligationRequest = Schema.Struct({
  userId: Id,
  itemType: Schema.Literal("topic", "item"),
  itemId: Id,
  dueDays: Schema.optional(DueDays.annotations({
    description: "1 to 3650, counted from the date the person took on the duty; omitted: no deadline"
  })),
  reason: OptionalReason
}).annotations({ identifier: "KnowledgeObligationRequest" })
export type KnowledgeObligationRequest = typeof KnowledgeObligationRequest.Type

/** POST /v1/retraining-assignments. */
export const RetrainingAssignmentRequest = Schema.Struct({
  userId: Id,
  lessonId: Id,
  dueDays: DueDays.annotations({ description: "1 to 3650, counted from now" }),
  retrainingResetsClock: Schema.Boolean.annotations({
    description: "Whether completing it counts as the next scheduled retake under the lesson's retraining policy"
  }),
  reason: OptionalReason
}).annotations({ identifier: "RetrainingAssignmentRequest" })
export type RetrainingAssignmentRequest = typeof RetrainingAssignmentRequest.Type

/** POST /v1/obligations/{id}/waive and /cancel. */
export const ObligationEndRequest = Schema.Struct({ reason: RequiredReason }).annotations({ identifier: "ObligationEndRequest" })
export type ObligationEndRequest = typeof ObligationEndRequest.Type

/** POST /v1/obligations/{id}/due-date. */
export const DueDateRequest = Schema.Struct({
  dueDate: Schema.NullOr(OffsetDateTime).annotations({ description: "The date set by hand, or null to remove the override" })
}).annotations({ identifier: "DueDateRequest" })
export type DueDateRequest = typeof DueDateRequest.Type

/** POST /v1/obligations/{id}/confirm-review. */
export const ConfirmReviewRequest = Schema.Struct({
  resolvedDueDate: Schema.optional(Schema.NullOr(OffsetDateTime).annotations({
    description: "The confirmed due date; null or left out: no due date"
  }))
}).annotations({ identifier: "ConfirmReviewRequest" })
export type ConfirmReviewRequest = typeof ConfirmReviewRequest.Type

/** An obligation's id in the path (the lesson paths take LessonPath). */
export const ObligationPath = Schema.Struct({ id: ObligationId })
