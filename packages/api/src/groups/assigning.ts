import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import type { Schema } from "effect"
import {
  AssignmentRequest,
  AssignmentResult,
  ConfirmReviewRequest,
  DueDateRequest,
  KnowledgeObligationRequest,
  ObligationEndRequest,
  ObligationPath,
  RetrainingAssignmentRequest,
  RetrainingPolicyRequest,
  UnassignRequest,
  UnassignResult
} from "@tks/domain/assigning"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { LessonPath } from "@tks/domain/lesson"
import { Obligation } from "@tks/domain/obligation"
import { policies } from "@tks/domain/policies"
import type { Policy } from "@tks/domain/policy"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { type RateLimitRule, routeLimits } from "@tks/domain/rate-limit-rules"
import { RetrainingPolicy } from "@tks/domain/retraining-policy"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"
import { limitedBy } from "../rate-limits.js"

const reach =
  "Reach: an organization admin assigns to anyone in the organization, a team admin to the people on the teams they administer, anyone else only to themself, as their role is on this call (a team admin demoted since the token was issued reaches only themself). A request naming anyone outside the reach is 403 and nothing changes for anyone."

const limit =
  "Limited to 30 calls a minute and 300 an hour per access token, counted for this route alone: past it, 429 with Retry-After and nothing done."

const described = (text: string) => `${text}\n\n${limit}`

/** One of the acts on one obligation: POST /obligations/{id}/<act>, answering the obligation. */
const obligationAct = <const Name extends string, P extends Schema.Schema.Any>(name: Name, act: string, spec: {
  readonly payload: P
  readonly summary: string
  readonly description: string
  readonly policy: Policy
  readonly limit: RateLimitRule
}) =>
  HttpApiEndpoint.post(name, `/obligations/:id/${act}`)
    .setPath(ObligationPath)
    .setPayload(spec.payload)
    .addSuccess(Obligation)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(TooManyRequests)
    .annotate(OpenApi.Summary, spec.summary)
    .annotate(OpenApi.Description, described(spec.description))
    .pipe(requires(spec.policy), limitedBy(spec.limit))

const ended = (status: string) =>
  `Only an active obligation (else 400); cannot be undone. The reason (required, up to 2000 characters) is kept; for a lesson the person is told. Answers the obligation, now ${status}.`

/** Assigning training (the training:assign scope, and the act allowed to the person on every call). */
export class AssigningGroup extends HttpApiGroup.make("assigning")
  .add(
    HttpApiEndpoint.post("assign", "/lessons/:id/assignments")
      .setPath(LessonPath)
      .setPayload(AssignmentRequest)
      .addSuccess(AssignmentResult)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Assign a lesson")
      .annotate(
        OpenApi.Description,
        described(
          `Assigns the lesson to everyone, to the people on teamIds (audience teams, 1 to 50 teams of the organization, else 400 Unknown teamId), or to userIds (audience users, 1 to 500 people). due is optional (no deadline): {type: date, date: ISO 8601 with UTC offset} or {type: days, days: 1 to 3650, counted from now}.\n\nEach newly reached person gets an enrollment, a quiz prepared for them, a required obligation and an email and text; the answer lists them ({userId, enrollmentId}). People who already had the lesson (in progress or completed) are left as they were and not listed (an active obligation of theirs merges: required wins, the earlier due date wins unless set by hand); an empty list is a success. With everyone or teams, people who cannot take the lesson (left the organization, or cannot read it) are quietly left out; naming one in userIds is 400, as is an audience nobody in which can take it. A closed lesson or one generated for a single person cannot be assigned (400); a lesson the caller cannot read is 404.\n\n${reach} Assigning to everyone needs an organization admin; a team admin may name only teams they administer.`
        )
      )
      .pipe(requires(policies.assigning.assign), limitedBy(routeLimits.assigning.assign))
  )
  .add(
    HttpApiEndpoint.post("unassign", "/lessons/:id/unassign")
      .setPath(LessonPath)
      .setPayload(UnassignRequest)
      .addSuccess(UnassignResult)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Take a lesson back")
      .annotate(
        OpenApi.Description,
        described(
          `Removes the named people's enrollments in progress with their progress and cancels their obligation on the lesson; completed enrollments are kept. Answers {lessonId, title, removedCount}. 400 when none of them has the lesson in progress. Only an organization admin may take back a lesson that is required of someone (others 403, nothing changed).\n\n${reach}`
        )
      )
      .pipe(requires(policies.assigning.unassign), limitedBy(routeLimits.assigning.unassign))
  )
  .add(
    HttpApiEndpoint.put("setRetrainingPolicy", "/lessons/:id/retraining-policy")
      .setPath(LessonPath)
      .setPayload(RetrainingPolicyRequest)
      .addSuccess(RetrainingPolicy)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Set a lesson's retraining policy")
      .annotate(
        OpenApi.Description,
        described(
          "retrainingType recurring retrains every intervalDays (1 to 3650) from each completion, completionMode full_retake (default) or changed_material (only when the lesson's source content changed since); none turns retraining off. intervalDays and completionMode are refused with none. Applies from each person's next completion and creates nothing for earlier completions. Needs permission to edit the lesson. A lesson generated for a single person cannot have one (400). Answers the policy as GET /v1/lessons/{id}/retraining-policy does."
        )
      )
      .pipe(requires(policies.assigning.retrainingPolicy), limitedBy(routeLimits.assigning.retrainingPolicy))
  )
  .add(
    HttpApiEndpoint.post("createKnowledgeObligation", "/knowledge-obligations")
      .setPayload(KnowledgeObligationRequest)
      .addSuccess(Obligation)
      .addError(Forbidden)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Require a person to know a topic or item")
      .annotate(
        OpenApi.Description,
        described(
          `The person must hold a duty on the topic or item, directly, through a team, or through a company role they hold at a tier the duty reaches (a duty on a space or category reaches what is under it), else 400; an unknown topic or item is 400. dueDays (1 to 3650, optional: no deadline) counts from the date the person took on the duty; when that date changes for a date not set by hand, the obligation is flagged needsReview and keeps its date until confirmed. If they already owe it, the request merges into that obligation. The reason (up to 2000 characters) is kept. Answers the obligation.\n\n${reach}`
        )
      )
      .pipe(requires(policies.assigning.knowledgeObligation), limitedBy(routeLimits.assigning.knowledgeObligation))
  )
  .add(
    HttpApiEndpoint.post("assignRetraining", "/retraining-assignments")
      .setPayload(RetrainingAssignmentRequest)
      .addSuccess(Obligation)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Assign a lesson again as retraining")
      .annotate(
        OpenApi.Description,
        described(
          `Enrolls the person again unless they have the lesson in progress (their quiz prepared), requires it with a due date dueDays (1 to 3650) from now, merging into an active obligation on the lesson, and tells them by email and text. retrainingResetsClock says whether completing it counts as the next scheduled retake under the lesson's retraining policy. A lesson generated for a single person cannot be retrained (400); a person who cannot take the lesson is 400; a lesson the caller cannot read is 404. Answers the obligation.\n\n${reach}`
        )
      )
      .pipe(requires(policies.assigning.retrainingAssignment), limitedBy(routeLimits.assigning.retrainingAssignment))
  )
  .add(
    obligationAct("waive", "waive", {
      payload: ObligationEndRequest,
      summary: "Waive an obligation",
      description: ended("waived"),
      policy: policies.assigning.waive,
      limit: routeLimits.assigning.waive
    })
  )
  .add(
    obligationAct("cancel", "cancel", {
      payload: ObligationEndRequest,
      summary: "Cancel an obligation",
      description: ended("cancelled"),
      policy: policies.assigning.cancel,
      limit: routeLimits.assigning.cancel
    })
  )
  .add(
    obligationAct("setDueDate", "due-date", {
      payload: DueDateRequest,
      summary: "Set or remove an obligation's due date by hand",
      description:
        "dueDate (ISO 8601 with UTC offset) sets the date by hand (dueDateOverridden true); later assignments of the same thing never move it. null removes the override and restores the computed date. Only an active obligation (else 400). For a lesson the person is told. Answers the obligation.",
      policy: policies.assigning.dueDate,
      limit: routeLimits.assigning.dueDate
    })
  )
  .add(
    obligationAct("confirmReview", "confirm-review", {
      payload: ConfirmReviewRequest,
      summary: "Confirm the due date of an obligation waiting for review",
      description:
        "Sets the due date to resolvedDueDate (ISO 8601 with UTC offset; null or left out: no due date) and clears needsReview. Refused (400) unless the obligation is active and flagged needsReview. Answers the obligation.",
      policy: policies.assigning.confirmReview,
      limit: routeLimits.assigning.confirmReview
    })
  )
  .middleware(Authentication) {}
