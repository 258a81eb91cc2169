import { expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { ReviewRequestId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { ContentReview } from "../src/content-review/service.js"
import { Documents } from "../src/intake/documents.js"
import { contributorsOnce, IntakeTestLayer, rowsAbout } from "./support/intake.js"

const setup = contributorsOnce()

/** A document `submitter` sends to review; its request id and content id. */
const submitted = (submitter: string, title = "Needs a look") =>
  Effect.gen(function*() {
    const { contributors: org } = yield* setup
    const documents = yield* Documents
    const { answer } = yield* documents.submit(org.access(submitter, policies.intake.document), {
      title,
      content: "# Draft\n\nSome text.",
      visibility: "everyone"
    })
    expect(answer.mode).toBe("review")
    return { requestId: ReviewRequestId.make(answer.reviewRequestId!), contentId: answer.contentId }
  })

layer(IntakeTestLayer)("deciding content-review requests", (it) => {
  it.effect("approve: APPROVED with the reviewer's note; the content published with the visibility the reviewer chose, and a processing job", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const review = yield* ContentReview
      const { contentId, requestId } = yield* submitted("member01")
      const decided = yield* review.approve(org.access("admin", policies.contentReview.decide), requestId, {
        visibility: "teams",
        teamIds: [org.teamId("alpha")],
        note: "Good, for Alpha"
      })
      expect(decided).toMatchObject({ status: "APPROVED", decisionNote: "Good, for Alpha", contentId, submitter: { id: org.userId("member01"), name: "Member 01" } })
      expect(decided.decidedAt).toEqual(expect.any(String))
      const rows = yield* rowsAbout(contentId)
      expect(rows.content).toMatchObject({ status: "published", visibility: "teams" })
      expect(rows.teamIds).toEqual([org.teamId("alpha")])
      expect(rows.jobs).toEqual([{ kind: "content.process", status: "PENDING" }])
    }))

  it.effect("reject: REJECTED, the content rejected; request-changes: CHANGES_REQUESTED, the content still in review, unreadable", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const review = yield* ContentReview
      const admin = org.access("owner", policies.contentReview.decide)
      const rejected = yield* submitted("member02")
      expect((yield* review.reject(admin, rejected.requestId, undefined))).toMatchObject({ status: "REJECTED", decisionNote: null })
      expect((yield* rowsAbout(rejected.contentId)).content).toMatchObject({ status: "rejected" })
      const changes = yield* submitted("member02")
      expect((yield* review.requestChanges(admin, changes.requestId, "Add the sources"))).toMatchObject({
        status: "CHANGES_REQUESTED",
        decisionNote: "Add the sources"
      })
      const rows = yield* rowsAbout(changes.contentId)
      expect(rows.content).toMatchObject({ status: "in_review", visibility: "admins" })
      expect(rows.jobs).toEqual([])
    }))

  it.effect("only a PENDING request can be decided: deciding twice is 400 and changes nothing", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const review = yield* ContentReview
      const admin = org.access("admin", policies.contentReview.decide)
      const { contentId, requestId } = yield* submitted("member03")
      yield* review.reject(admin, requestId, "No")
      for (const again of [
        review.approve(admin, requestId, { visibility: "everyone" }),
        review.reject(admin, requestId, undefined),
        review.requestChanges(admin, requestId, "Hm")
      ]) {
        expect(yield* Effect.flip(again)).toMatchObject({ _tag: "BadRequest", code: "REVIEW_NOT_DECIDABLE", message: expect.stringContaining("is REJECTED") })
      }
      expect((yield* review.get(org.access("admin", policies.contentReview.get), requestId))).toMatchObject({ status: "REJECTED", decisionNote: "No" })
      expect((yield* rowsAbout(contentId)).content).toMatchObject({ status: "rejected" })
    }))

  it.effect("two concurrent decisions on one request: exactly one wins, the other is 400", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const review = yield* ContentReview
      const { contentId, requestId } = yield* submitted("member04")
      const [approve, reject] = yield* Effect.all(
        [
          Effect.exit(review.approve(org.access("admin", policies.contentReview.decide), requestId, { visibility: "everyone" })),
          Effect.exit(review.reject(org.access("owner", policies.contentReview.decide), requestId, undefined))
        ],
        { concurrency: 2 }
      )
      expect([approve, reject].filter(Exit.isSuccess)).toHaveLength(1)
      const status = (yield* review.get(org.access("admin", policies.contentReview.get), requestId)).status
      expect(status).toBe(Exit.isSuccess(approve) ? "APPROVED" : "REJECTED")
      expect((yield* rowsAbout(contentId)).content?.status).toBe(Exit.isSuccess(approve) ? "published" : "rejected")
    }))

  it.effect("approve with a team of another organization is 400 Unknown teamId and leaves the request PENDING", () =>
    Effect.gen(function*() {
      const { contributors: org, elsewhere } = yield* setup
      const review = yield* ContentReview
      const { requestId } = yield* submitted("member05")
      const error = yield* Effect.flip(
        review.approve(org.access("admin", policies.contentReview.decide), requestId, { visibility: "teams", teamIds: [elsewhere.teamId("foreign")] })
      )
      expect(error).toMatchObject({ code: "UNKNOWN_TEAM", message: "Unknown teamId" })
      expect((yield* review.get(org.access("admin", policies.contentReview.get), requestId)).status).toBe("PENDING")
    }))

  it.effect("cancel: the submitter's own, while PENDING or CHANGES_REQUESTED; the content withdrawn; anyone else's is absent", () =>
    Effect.gen(function*() {
      const { contributors: org } = yield* setup
      const review = yield* ContentReview
      const pending = yield* submitted("member06")
      // Another member cannot cancel it (404, as if absent), and neither can an admin: cancel is the submitter's act.
      for (const key of ["member07", "admin"]) {
        expect((yield* Effect.flip(review.cancel(org.access(key, policies.contentReview.cancel), pending.requestId)))._tag, key).toBe("NotFound")
      }
      const canceled = yield* review.cancel(org.access("member06", policies.contentReview.cancel), pending.requestId)
      expect(canceled.status).toBe("CANCELED")
      expect((yield* rowsAbout(pending.contentId)).content).toMatchObject({ status: "withdrawn" })

      const sentBack = yield* submitted("member06")
      yield* review.requestChanges(org.access("admin", policies.contentReview.decide), sentBack.requestId, "Shorter, please")
      const afterChanges = yield* review.cancel(org.access("member06", policies.contentReview.cancel), sentBack.requestId)
      // The reviewer's note stays with the request.
      expect(afterChanges).toMatchObject({ status: "CANCELED", decisionNote: "Shorter, please" })
      expect(yield* Effect.flip(review.cancel(org.access("member06", policies.contentReview.cancel), sentBack.requestId))).toMatchObject({
        code: "REVIEW_NOT_DECIDABLE"
      })
    }))
})
