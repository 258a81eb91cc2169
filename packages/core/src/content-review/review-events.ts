import type { AuditChange, AuditTarget } from "@tks/domain/audit"
import { Caller } from "@tks/domain/caller"
import type { ReviewDecision, ReviewKind, ReviewResourceType, ReviewStatus } from "@tks/domain/content-review"
import type { Access } from "@tks/domain/policy"
import { contentPublished, type ContentRefData } from "../content/content-events.js"
import type { ActRecord, EventDraft } from "../journal/journal.js"

/** A content-review request as its events name it. */
export interface ReviewRef {
  readonly id: string
  readonly kind: ReviewKind
  readonly resourceType: ReviewResourceType
}

/** The decision as `review_request.decided` names it (a cancel is not one: it has no event). */
const decisionOf = {
  approve: "APPROVED",
  reject: "REJECTED",
  "request-changes": "CHANGES_REQUESTED"
} as const satisfies Record<Exclude<ReviewDecision, "cancel">, string>

const targetsOf = (review: ReviewRef, contentId: string | null, submitterId: string): Array<AuditTarget> => [
  { type: "review_request", id: review.id },
  ...(contentId === null ? [] : [{ type: "content", id: contentId }]),
  { type: "person", id: submitterId }
]

/** A contribution sent to review: `review_request.submitted`, about its submitter. */
export const reviewSubmitted = (access: Access, review: ReviewRef, content: ContentRefData): ActRecord => ({
  caller: Caller.person(access),
  orgId: access.actor.organizationId,
  action: "review_request.submitted",
  targets: targetsOf(review, content.id, access.actor.userId),
  changes: { status: { new: "PENDING" }, title: { new: content.title } },
  events: [{ type: "review_request.submitted", data: { reviewRequest: review, content }, personId: access.actor.userId }]
})

/**
 * A reviewer's decision (approve, reject, request changes):
 * `review_request.decided`, and for an approval that publishes the content,
 * `content.published` in the same record. The submitter's cancel has its
 * own name and no event (`review_request.cancelled`).
 */
export const reviewDecided = (
  access: Access,
  input: {
    readonly decision: ReviewDecision
    readonly review: ReviewRef
    readonly submitterId: string
    readonly from: ReviewStatus
    readonly to: ReviewStatus
    readonly note: string | null
    readonly content: ContentRefData | null
    readonly published: boolean
    readonly changes: Readonly<Record<string, AuditChange>>
  }
): ActRecord => {
  const target = targetsOf(input.review, input.content?.id ?? null, input.submitterId)
  const changes = { status: { old: input.from, new: input.to }, ...input.changes }
  if (input.decision === "cancel") {
    return { caller: Caller.person(access), orgId: access.actor.organizationId, action: "review_request.cancelled", targets: target, changes }
  }
  const decision = decisionOf[input.decision]
  const events: Array<EventDraft> = [{
    type: "review_request.decided",
    data: { reviewRequest: input.review, decision, note: input.note, content: input.content },
    personId: input.submitterId
  }]
  if (input.published && input.content !== null) events.push(contentPublished(input.content))
  return { caller: Caller.person(access), orgId: access.actor.organizationId, action: "review_request.decided", targets: target, changes, events }
}
