import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import {
  type ApproveReview,
  type ContentReviewListParams,
  type ContentReviewRequest,
  reviewErrorCode,
  type ReviewDecision,
  reviewTransitions,
  transition
} from "@tks/domain/content-review"
import type { AuditChange } from "@tks/domain/audit"
import { BadRequest, NotFound } from "@tks/domain/errors"
import type { ReviewRequestId } from "@tks/domain/ids"
import { type Audience, audienceOf } from "@tks/domain/intake"
import { type Access, requireOrganizationReach } from "@tks/domain/policy"
import { requireKnownTeams } from "../intake/audience.js"
import { IntakeRepo } from "../intake/repo.js"
import { contentRef } from "../content/content-events.js"
import { JobsRepo } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { newestFirst } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { iso, isoOrNull } from "../common/time.js"
import { ContentReviewRepo, type ReviewFilter, type ReviewRow } from "./repo.js"
import { reviewDecided } from "./review-events.js"
import { traced } from "../common/traced.js"

const notFound = () => new NotFound({ message: "No such content-review request" })

/**
 * The review lane. A reviewer (an organization admin,
 * reach `organization`) reads the whole queue and decides; anyone else reads
 * and cancels only their own submissions, and another person's request is
 * absent to them (404). Each decision is one transaction around one
 * conditional UPDATE (see ContentReviewRepo.move).
 */
export class ContentReview extends Effect.Service<ContentReview>()("@tks/core/ContentReview", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ContentReviewRepo
    const intake = yield* IntakeRepo
    const jobs = yield* JobsRepo
    const links = yield* Links
    const pagination = yield* Pagination
    const journal = yield* Journal

    const view = (row: ReviewRow): ContentReviewRequest => ({
      id: row.id,
      status: row.status,
      resourceType: row.resource_type,
      kind: row.kind,
      title: row.title,
      contentId: row.content_id,
      submitter: { id: row.submitter_id, name: row.submitter_name },
      decidedAt: isoOrNull(row.decided_at),
      decisionNote: row.decision_note,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      url: links.reviewRequest(row.id),
      contentUrl: row.content_id === null ? null : links.content(row.content_id)
    })

    /** Whose requests the caller reaches: everyone's for a reviewer, otherwise their own. */
    const ownOnly = (access: Access) => (access.reach === "organization" ? null : access.actor.userId)

    const list = traced("ContentReview.list")(function*(access: Access, params: ContentReviewListParams) {
      if (params.submitterId !== undefined) {
        const refused = requireOrganizationReach(access, "filter content-review requests by submitterId")
        if (refused !== null) return yield* refused
      }
      const own = ownOnly(access)
      const submitters = [
        ...(own === null ? [] : [own]),
        ...(params.mine === true ? [access.actor.userId] : []),
        ...(params.submitterId === undefined ? [] : [params.submitterId])
      ]
      const filter: ReviewFilter = {
        orgId: access.actor.organizationId,
        status: params.status ?? null,
        resourceType: params.resourceType ?? null,
        kind: params.kind ?? null,
        submitters: [...new Set(submitters)]
      }
      return yield* pagination.page({
        listing: ["content-review-requests", filter],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.page(filter, after, limit),
        view
      })
    })

    const get = traced("ContentReview.get")(function*(access: Access, id: ReviewRequestId) {
      const row = yield* repo.find(access.actor.organizationId, id, ownOnly(access))
      return row === undefined ? yield* notFound() : view(row)
    })

    /**
     * Runs a decision in one transaction: 404 when the request is not the
     * caller's to see, 400 when its state does not allow the decision
     * (decided already) or a team is unknown, then the conditional move and
     * what it does to the content. The request is locked as it is read, so
     * concurrent decisions take turns: the later one gets the 400 for the
     * state the earlier left (and the conditional move would change nothing
     * if it got that far), and each record says the state it really moved
     * from. The decision is recorded
     * in its transaction (`review_request.decided`, with `content.published`
     * when an approval publishes; a cancel as `review_request.cancelled`).
     */
    const decide = (
      access: Access,
      id: ReviewRequestId,
      decision: ReviewDecision,
      options: { readonly note: string | null; readonly audience: Audience | null }
    ) =>
      sql.withTransaction(Effect.gen(function*() {
        const orgId = access.actor.organizationId
        // Cancel is the submitter's own act; the other decisions are a reviewer's, on anyone's request.
        const submitter = decision === "cancel" ? access.actor.userId : null
        const refuse = (row: ReviewRow) =>
          new BadRequest({
            code: reviewErrorCode,
            message: Either.getOrElse(
              Either.flip(transition(decision, row.status)),
              () => "This content-review request changed while it was being decided; read it again"
            )
          })
        const current = yield* repo.find(orgId, id, submitter, true)
        if (current === undefined) return yield* notFound()
        if (Either.isLeft(transition(decision, current.status))) return yield* refuse(current)
        if (options.audience !== null) yield* requireKnownTeams(intake, orgId, options.audience)
        const move = reviewTransitions[decision]
        const moved = yield* repo.move({ orgId, id, from: move.from, to: move.to, decidedBy: access.actor.userId, note: options.note, submitter })
        if (moved === undefined) {
          // A concurrent decision won between our read and our move: say what it left.
          const now = yield* repo.find(orgId, id, submitter)
          return yield* now === undefined ? notFound() : refuse(now)
        }
        const contentId = moved.content_id
        const before = contentId === null ? undefined : yield* repo.content(orgId, contentId)
        let published = false
        const changes: Record<string, AuditChange> = { decisionNote: { old: current.decision_note, new: options.note ?? current.decision_note } }
        if (contentId !== null && move.content !== null) {
          const audience = options.audience
          const settled = yield* repo.settleContent(orgId, contentId, move.content, audience?.visibility ?? null)
          if (settled) changes.contentStatus = { old: "in_review", new: move.content }
          if (settled && move.content === "published" && audience !== null) {
            yield* intake.setTeams(orgId, contentId, audience.teamIds)
            yield* jobs.enqueue({ orgId, kind: "content.process", subjectId: contentId })
            published = true
            changes.visibility = { old: before?.visibility, new: audience.visibility }
            if (audience.teamIds.length > 0) changes.teamIds = { new: [...audience.teamIds] }
          }
        }
        yield* journal.record(reviewDecided(access, {
          decision,
          review: { id: current.id, kind: current.kind, resourceType: current.resource_type },
          submitterId: current.submitter_id,
          from: current.status,
          to: move.to,
          note: options.note ?? current.decision_note,
          content: before === undefined ? null : contentRef(before),
          published,
          changes
        }))
        const row = yield* repo.find(orgId, id, null)
        return row === undefined ? yield* Effect.dieMessage("a content-review request vanished inside its decision") : view(row)
      }))

    const approve = traced("ContentReview.approve")(function*(access: Access, id: ReviewRequestId, body: ApproveReview) {
      return yield* decide(access, id, "approve", { note: body.note ?? null, audience: audienceOf(body) })
    })

    const reject = traced("ContentReview.reject")(function*(access: Access, id: ReviewRequestId, note: string | undefined) {
      return yield* decide(access, id, "reject", { note: note ?? null, audience: null })
    })

    const requestChanges = traced("ContentReview.requestChanges")(function*(access: Access, id: ReviewRequestId, note: string) {
      return yield* decide(access, id, "request-changes", { note, audience: null })
    })

    const cancel = traced("ContentReview.cancel")(function*(access: Access, id: ReviewRequestId) {
      return yield* decide(access, id, "cancel", { note: null, audience: null })
    })

    return { list, get, approve, reject, requestChanges, cancel } as const
  }),
  dependencies: [ContentReviewRepo.Default, IntakeRepo.Default, JobsRepo.Default, Journal.Default, Links.Default, Pagination.Default]
}) {}
