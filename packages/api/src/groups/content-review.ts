import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  ApproveReview,
  ContentReviewListParams,
  ContentReviewPath,
  ContentReviewRequest,
  RejectReview,
  RequestChanges
} from "@tks/domain/content-review"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const decided =
  "Only a PENDING request can be decided (else 400 REVIEW_NOT_DECIDABLE); of two concurrent decisions one wins. A request of another organization is 404. Answers the request as it now is."

/** The review lane of contributions, and the decisions that move it. */
export class ContentReviewGroup extends HttpApiGroup.make("contentReview")
  .add(
    HttpApiEndpoint.get("list", "/content-review-requests")
      .setUrlParams(ContentReviewListParams)
      .addSuccess(Page(ContentReviewRequest))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List content-review requests")
      .annotate(
        OpenApi.Description,
        "Newest first. A reviewer (organization admin) sees the whole queue; anyone else only their own submissions. Filters: status, resourceType, kind, submitterId (reviewers only; others 403) and mine."
      )
      .pipe(requires(policies.contentReview.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/content-review-requests/:id")
      .setPath(ContentReviewPath)
      .addSuccess(ContentReviewRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a content-review request")
      .annotate(OpenApi.Description, "A reviewer reads any request; anyone else only their own (others 404).")
      .pipe(requires(policies.contentReview.get))
  )
  .add(
    HttpApiEndpoint.post("approve", "/content-review-requests/:id/approve")
      .setPath(ContentReviewPath)
      .setPayload(ApproveReview)
      .addSuccess(ContentReviewRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Approve a content-review request")
      .annotate(
        OpenApi.Description,
        `APPROVED: the content is published with the visibility the reviewer chooses (teamIds as when adding content, "Unknown teamId" included), enters processing and becomes readable. ${decided}`
      )
      .pipe(requires(policies.contentReview.decide))
  )
  .add(
    HttpApiEndpoint.post("reject", "/content-review-requests/:id/reject")
      .setPath(ContentReviewPath)
      .setPayload(RejectReview)
      .addSuccess(ContentReviewRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Reject a content-review request")
      .annotate(OpenApi.Description, `REJECTED: the content is never published. ${decided}`)
      .pipe(requires(policies.contentReview.decide))
  )
  .add(
    HttpApiEndpoint.post("requestChanges", "/content-review-requests/:id/request-changes")
      .setPath(ContentReviewPath)
      .setPayload(RequestChanges)
      .addSuccess(ContentReviewRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Ask the submitter for changes")
      .annotate(OpenApi.Description, `CHANGES_REQUESTED, with a note the submitter reads; the content stays unreadable. ${decided}`)
      .pipe(requires(policies.contentReview.decide))
  )
  .add(
    HttpApiEndpoint.post("cancel", "/content-review-requests/:id/cancel")
      .setPath(ContentReviewPath)
      .addSuccess(ContentReviewRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Cancel your own content-review request")
      .annotate(
        OpenApi.Description,
        "CANCELED, by the submitter, while the request is PENDING or CHANGES_REQUESTED (else 400 REVIEW_NOT_DECIDABLE); the content is withdrawn. Another person's request is 404."
      )
      .pipe(requires(policies.contentReview.cancel))
  )
  .middleware(Authentication) {}
