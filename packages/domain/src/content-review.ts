import { Either, Schema } from "effect"
import { EntityRef, Timestamp } from "./common.js"
import { ReviewRequestId } from "./ids.js"
import { audienceFields, audienceRule, characterCount } from "./intake.js"
import { PageParams } from "./page-params.js"
import { BooleanFromQuery } from "./pagination.js"
import { storableText } from "./text.js"

/**
 * The review lane: contributions that wait for an
 * administrator, the decisions that move them, and what each decision does
 * to the content. The transition table is pure; core runs each transition as
 * one conditional UPDATE from the states this module allows.
 */

export const ReviewStatus = Schema.Literal("PENDING", "APPROVED", "REJECTED", "CHANGES_REQUESTED", "CANCELED", "SUPERSEDED")
export type ReviewStatus = typeof ReviewStatus.Type

export const ReviewResourceType = Schema.Literal("document", "video", "audio", "guide")
export type ReviewResourceType = typeof ReviewResourceType.Type

export const ReviewKind = Schema.Literal("content", "content-resolves-issue", "issue-only")
export type ReviewKind = typeof ReviewKind.Type

/** The state of a content record (migration 0003): only `published` is read through /v1/content. */
export type ContentStatus = "draft" | "in_review" | "published" | "rejected" | "withdrawn"

export type ReviewDecision = "approve" | "reject" | "request-changes" | "cancel"

interface Transition {
  /** The request states the decision may be taken from. */
  readonly from: ReadonlyArray<ReviewStatus>
  readonly to: ReviewStatus
  /** The content's state afterwards; null leaves it as it is (still in review, unreadable). */
  readonly content: ContentStatus | null
}

/**
 * The contract names the states; the moves are the product's: an administrator
 * decides a PENDING request (approve publishes the content, reject ends it,
 * request-changes sends it back to the submitter, who may cancel it then or
 * while it is pending, which withdraws the content).
 */
export const reviewTransitions: Readonly<Record<ReviewDecision, Transition>> = {
  approve: { from: ["PENDING"], to: "APPROVED", content: "published" },
  reject: { from: ["PENDING"], to: "REJECTED", content: "rejected" },
  "request-changes": { from: ["PENDING"], to: "CHANGES_REQUESTED", content: null },
  cancel: { from: ["PENDING", "CHANGES_REQUESTED"], to: "CANCELED", content: "withdrawn" }
}

const verbs: Readonly<Record<ReviewDecision, string>> = {
  approve: "approved",
  reject: "rejected",
  "request-changes": "sent back for changes",
  cancel: "canceled"
}

/** The code of the 400 answered when a request's state does not allow a decision. */
export const reviewErrorCode = "REVIEW_NOT_DECIDABLE"

/** The 400 message when a request is not in a state the decision can be taken from. */
export const notDecidableMessage = (decision: ReviewDecision, current: ReviewStatus): string =>
  `This content-review request is ${current}; only a request that is ${reviewTransitions[decision].from.join(" or ")} can be ${
    verbs[decision]
  }`

/** Where `decision` takes a request now at `current`: the transition, or the 400 message. */
export const transition = (decision: ReviewDecision, current: ReviewStatus): Either.Either<Transition, string> => {
  const move = reviewTransitions[decision]
  return move.from.includes(current) ? Either.right(move) : Either.left(notDecidableMessage(decision, current))
}

/** A content-review request on the wire (its fields are the product's). */
export const ContentReviewRequest = Schema.Struct({
  id: Schema.String,
  status: ReviewStatus,
  resourceType: ReviewResourceType,
  kind: ReviewKind,
  title: Schema.String,
  contentId: Schema.NullOr(Schema.String),
  submitter: EntityRef,
  decidedAt: Schema.NullOr(Timestamp),
  decisionNote: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  url: Schema.String.annotations({ description: "This request's own read endpoint" }),
  contentUrl: Schema.NullOr(Schema.String).annotations({ description: "The content's read endpoint; it answers once the content is approved" })
}).annotations({ identifier: "ContentReviewRequest" })
export type ContentReviewRequest = typeof ContentReviewRequest.Type

/** GET /v1/content-review-requests. */
export const ContentReviewListParams = Schema.Struct({
  status: Schema.optional(ReviewStatus),
  resourceType: Schema.optional(ReviewResourceType),
  kind: Schema.optional(ReviewKind),
  submitterId: Schema.optional(Schema.String.annotations({ description: "Only this person's submissions; reviewers (organization admins) only, others 403" })),
  mine: Schema.optional(BooleanFromQuery.annotations({ description: "true lists only the caller's own submissions" })),
  ...PageParams.fields
})
export type ContentReviewListParams = typeof ContentReviewListParams.Type

/** A content review request's id in the path. */
export const ContentReviewPath = Schema.Struct({ id: ReviewRequestId })

export const noteMaxCharacters = 2000

const Note = storableText(Schema.String).pipe(
  Schema.filter((value) => characterCount(value) <= noteMaxCharacters || `note must be at most ${noteMaxCharacters} characters`, {
    jsonSchema: { maxLength: noteMaxCharacters }
  })
).annotations({ description: `Up to ${noteMaxCharacters} characters; the submitter reads it` })

const RequiredNote = Note.pipe(
  Schema.filter((value) => value.trim().length > 0 || "note must not be blank", { jsonSchema: { minLength: 1 } })
)

/** POST /v1/content-review-requests/{id}/approve: the reviewer chooses who sees the content. */
export const ApproveReview = Schema.Struct({ ...audienceFields, note: Schema.optional(Note) })
  .pipe(Schema.filter(audienceRule, { jsonSchema: {} }))
  .annotations({ identifier: "ApproveReview" })
export type ApproveReview = typeof ApproveReview.Type

export const RejectReview = Schema.Struct({ note: Schema.optional(Note) }).annotations({ identifier: "RejectReview" })
export type RejectReview = typeof RejectReview.Type

export const RequestChanges = Schema.Struct({
  note: RequiredNote.annotations({ description: "What the submitter should change" })
}).annotations({ identifier: "RequestChanges" })
export type RequestChanges = typeof RequestChanges.Type
