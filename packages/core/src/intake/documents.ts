import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { PageFetcher } from "@tks/adapters/page-fetch/port"
import { BadRequest, BadRequestCode, InputIssue } from "@tks/domain/errors"
import {
  type Audience,
  audienceOf,
  type DocumentFromUrl,
  type DocumentSubmission,
  intakeErrorCodes,
  type NewDocument,
  publisherOf,
  type SubmissionMode,
  submissionMode,
  unfetchableAddress
} from "@tks/domain/intake"
import type { Access } from "@tks/domain/policy"
import type { Counted } from "@tks/domain/rate-limit"
import { Caller } from "@tks/domain/caller"
import { contentAdded, contentRef } from "../content/content-events.js"
import { reviewSubmitted } from "../content-review/review-events.js"
import { JobsRepo } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { RateLimiter } from "../rate-limits/service.js"
import { newId } from "../common/ids.js"
import { Links } from "../common/links.js"
import { requireKnownTeams } from "./audience.js"
import { IntakeRepo } from "./repo.js"
import { consumeReviewSubmission, probeReviewSubmission } from "./review-limit.js"
import { parseFetchAddress, provisionalTitle, storable } from "./url.js"
import { traced } from "../common/traced.js"

/** A document about to be created, whichever endpoint it came through. */
interface DocumentDraft {
  readonly title: string
  /** False when the title is provisional (a fetched page's site name) and processing should read a better one. */
  readonly titleFinal: boolean
  readonly body: string
  readonly sourceUrl: string | null
  readonly siteName: string | null
}

/**
 * POST /v1/documents and /v1/documents/from-url. The order
 * matters: the body's rules and `Unknown teamId` first, then the outcome
 * (published or review), then any fetch (review-bound: only once the
 * person's review-submission allowance is seen to have room, so a limited
 * caller causes no outbound fetch), then one transaction that creates
 * everything and, for review, takes the count. So a refused call creates
 * nothing and counts nothing.
 */
export class Documents extends Effect.Service<Documents>()("@tks/core/Documents", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* IntakeRepo
    const jobs = yield* JobsRepo
    const links = yield* Links
    const limiter = yield* RateLimiter
    const fetcher = yield* PageFetcher
    const journal = yield* Journal

    /** Valid teams, then the outcome. */
    const admit = (access: Access, audience: Audience) =>
      Effect.gen(function*() {
        yield* requireKnownTeams(repo, access.actor.organizationId, audience)
        return submissionMode(publisherOf(access), audience)
      })

    /**
     * One transaction. Published: the content with the asked visibility and
     * its processing job (a draft gets no job: it is not live). Review: the
     * content waits unreadable, visible to admins only as a placeholder (the
     * asked visibility is not kept: the reviewer chooses), with its request,
     * counted against the person's review-submission allowance first. Either
     * way the act is recorded in the same transaction (docs/domain.md, Events
     * and the audit log).
     */
    const create = (
      access: Access,
      draft: DocumentDraft,
      audience: Audience,
      mode: SubmissionMode,
      asDraft: boolean
    ) =>
      sql.withTransaction(Effect.gen(function*() {
        const { organizationId: orgId, userId } = access.actor
        const allowance = mode === "review" ? yield* consumeReviewSubmission(limiter, access.actor) : null
        const contentId = newId("content")
        const published = mode === "published"
        const isDraft = published && asDraft
        yield* repo.insertContent({
          orgId,
          id: contentId,
          type: "document",
          title: draft.title,
          titleFinal: draft.titleFinal,
          body: draft.body,
          sourceUrl: draft.sourceUrl,
          siteName: draft.siteName,
          status: published ? (isDraft ? "draft" : "published") : "in_review",
          visibility: published ? audience.visibility : "admins",
          createdBy: userId
        })
        const content = contentRef({ id: contentId, title: draft.title, type: "document" })
        let reviewRequestId: string | null = null
        if (published) {
          yield* repo.setTeams(orgId, contentId, audience.teamIds)
          if (!isDraft) yield* jobs.enqueue({ orgId, kind: "content.process", subjectId: contentId })
          yield* journal.record(contentAdded(Caller.person(access), orgId, content, audience, isDraft))
        } else {
          reviewRequestId = newId("reviewRequest")
          yield* repo.insertReviewRequest({
            orgId,
            id: reviewRequestId,
            contentId,
            submitterId: userId,
            resourceType: "document",
            title: draft.title
          })
          yield* journal.record(reviewSubmitted(access, { id: reviewRequestId, kind: "content", resourceType: "document" }, content))
        }
        const submission: DocumentSubmission = {
          mode,
          draft: isDraft,
          contentId,
          reviewRequestId,
          title: draft.title,
          url: links.content(contentId)
        }
        const counted: Counted<DocumentSubmission> = { answer: submission, allowance }
        return counted
      }))

    const submit = traced("Documents.submit")(function*(access: Access, body: NewDocument) {
      const audience = audienceOf(body)
      const mode = yield* admit(access, audience)
      const draft: DocumentDraft = { title: body.title, titleFinal: true, body: body.content, sourceUrl: null, siteName: null }
      return yield* create(access, draft, audience, mode, body.asDraft === true)
    })

    const submitFromUrl = traced("Documents.submitFromUrl")(
      function*(access: Access, body: DocumentFromUrl) {
        const address = parseFetchAddress(body.url)
        if (Either.isLeft(address)) {
          return yield* new BadRequest({
            code: BadRequestCode.validation,
            message: address.left,
            issues: [new InputIssue({ path: "url", message: address.left })]
          })
        }
        const audience = audienceOf(body)
        const mode = yield* admit(access, audience)
        if (mode === "review") yield* probeReviewSubmission(sql, limiter, access.actor)
        // The query string may carry someone's secrets: the log gets the origin and path only.
        const page = yield* fetcher.fetch(address.right).pipe(
          Effect.tapError((refusal) =>
            Effect.logInfo("address not fetched", { url: `${address.right.origin}${address.right.pathname}`, reason: refusal.reason })),
          Effect.mapError(() => new BadRequest({ code: intakeErrorCodes.unfetchable, message: unfetchableAddress }))
        )
        const draft: DocumentDraft = {
          title: provisionalTitle(page.siteName, page.finalUrl),
          titleFinal: false,
          body: storable(page.markdown),
          sourceUrl: page.finalUrl,
          siteName: storable(page.siteName)
        }
        return yield* create(access, draft, audience, mode, false)
      }
    )

    return { submit, submitFromUrl } as const
  }),
  dependencies: [IntakeRepo.Default, JobsRepo.Default, Journal.Default, Links.Default, RateLimiter.Default]
}) {}
