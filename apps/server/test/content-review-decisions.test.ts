import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { contributorsOnce, post, storedContent } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * The decisions of the review lane: an organization admin
 * approves (choosing who sees the content), rejects or asks for changes; the
 * submitter cancels. Only a PENDING request can be decided. Each member
 * submits at most three documents here (the review-submission limit).
 */
const setup = contributorsOnce

/** A document `submitter` sends to review: its request and content ids. */
const submitted = (submitter: string, title = "Please review") =>
  Effect.gen(function*() {
    const { token } = yield* setup
    const response = yield* post("/v1/documents", token(submitter), { title, content: "Body.", visibility: "everyone" })
    expect(response.json.mode).toBe("review")
    return { requestId: response.json.reviewRequestId as string, contentId: response.json.contentId as string }
  })

const decide = (requestId: string, decision: "approve" | "reject" | "request-changes" | "cancel", token: string | undefined, body?: unknown) =>
  body === undefined
    ? raw("POST", `/v1/content-review-requests/${requestId}/${decision}`, { token })
    : post(`/v1/content-review-requests/${requestId}/${decision}`, token, body)

layer(TestServerLive, { excludeTestServices: true })("deciding content-review requests", (it) => {
  it.effect("approve: APPROVED; the content is published with the visibility and teams the reviewer chose, and queued for processing", () =>
    Effect.gen(function*() {
      const { teamId, token, userId } = yield* setup
      const { contentId, requestId } = yield* submitted("member01")
      expect(yield* storedContent(contentId)).toMatchObject({ status: "in_review", visibility: "admins", jobs: 0 })
      const response = yield* decide(requestId, "approve", token("admin"), { visibility: "teams", teamIds: [teamId("alpha"), teamId("ops")], note: "Welcome" })
      expect(response.status).toBe(200)
      expect(response.json).toMatchObject({
        id: requestId,
        status: "APPROVED",
        contentId,
        decisionNote: "Welcome",
        decidedAt: expect.stringMatching(/Z$/),
        submitter: { id: userId("member01") }
      })
      expect(yield* storedContent(contentId)).toMatchObject({
        status: "published",
        visibility: "teams",
        teamIds: [teamId("alpha"), teamId("ops")].sort(),
        jobs: 1
      })
      // The submitter reads the outcome.
      expect((yield* raw("GET", `/v1/content-review-requests/${requestId}`, { token: token("member01") })).json.status).toBe("APPROVED")
    }))

  it.effect("approve takes the visibility rules of adding content: teamIds only with teams, 'Unknown teamId'; a refused approval leaves it PENDING", () =>
    Effect.gen(function*() {
      const { elsewhere, teamId, token } = yield* setup
      const { contentId, requestId } = yield* submitted("member02")
      expectError(yield* decide(requestId, "approve", token("admin"), {}), 400, "VALIDATION_ERROR", "no visibility")
      expectError(yield* decide(requestId, "approve", token("admin"), { visibility: "teams" }), 400, "VALIDATION_ERROR", "teams alone")
      expectError(yield* decide(requestId, "approve", token("admin"), { visibility: "everyone", teamIds: [teamId("ops")] }), 400, "VALIDATION_ERROR", "everyone")
      const unknown = yield* decide(requestId, "approve", token("admin"), { visibility: "teams", teamIds: [elsewhere.ids.teams.foreign] })
      expect(unknown.json).toMatchObject({ code: "UNKNOWN_TEAM", message: "Unknown teamId" })
      expect((yield* raw("GET", `/v1/content-review-requests/${requestId}`, { token: token("admin") })).json.status).toBe("PENDING")
      expect(yield* storedContent(contentId)).toMatchObject({ status: "in_review" })
      // Approved for admins only, with no teams.
      expect((yield* decide(requestId, "approve", token("owner"), { visibility: "admins" })).json.status).toBe("APPROVED")
      expect(yield* storedContent(contentId)).toMatchObject({ status: "published", visibility: "admins", teamIds: [] })
    }))

  it.effect("reject: REJECTED, the content rejected and never queued", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const { contentId, requestId } = yield* submitted("member03")
      const response = yield* decide(requestId, "reject", token("billingAdmin"), { note: "Duplicate of the handbook" })
      expect(response.json).toMatchObject({ status: "REJECTED", decisionNote: "Duplicate of the handbook" })
      expect(yield* storedContent(contentId)).toMatchObject({ status: "rejected", jobs: 0 })
      // The note is optional.
      const second = yield* submitted("member03")
      expect((yield* decide(second.requestId, "reject", token("admin"), {})).json).toMatchObject({ status: "REJECTED", decisionNote: null })
    }))

  it.effect("request-changes: a note is required; CHANGES_REQUESTED, the content stays in review", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const { contentId, requestId } = yield* submitted("member04")
      expectError(yield* decide(requestId, "request-changes", token("admin"), {}), 400, "VALIDATION_ERROR", "no note")
      expectError(yield* decide(requestId, "request-changes", token("admin"), { note: "  " }), 400, "VALIDATION_ERROR", "blank note")
      const response = yield* decide(requestId, "request-changes", token("admin"), { note: "Cite the source" })
      expect(response.json).toMatchObject({ status: "CHANGES_REQUESTED", decisionNote: "Cite the source" })
      expect(yield* storedContent(contentId)).toMatchObject({ status: "in_review", visibility: "admins", jobs: 0 })
    }))

  it.effect("only a PENDING request can be decided: a second decision is 400 REVIEW_NOT_DECIDABLE and changes nothing", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const { contentId, requestId } = yield* submitted("member05")
      expect((yield* decide(requestId, "approve", token("admin"), { visibility: "everyone" })).status).toBe(200)
      for (const [decision, body] of [["approve", { visibility: "admins" }], ["reject", {}], ["request-changes", { note: "Late" }]] as const) {
        const again = yield* decide(requestId, decision, token("owner"), body)
        expectError(again, 400, "REVIEW_NOT_DECIDABLE", decision)
        expect(again.json.message).toContain("is APPROVED")
      }
      expect(yield* storedContent(contentId)).toMatchObject({ status: "published", visibility: "everyone", jobs: 1 })
    }))

  it.effect("cancel: the submitter's own, PENDING or CHANGES_REQUESTED; the content withdrawn; someone else's request is 404", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const pending = yield* submitted("member06")
      for (const caller of ["member07", "admin", "otto"]) expectError(yield* decide(pending.requestId, "cancel", token(caller)), 404, "NOT_FOUND", caller)
      const canceled = yield* decide(pending.requestId, "cancel", token("member06"))
      expect(canceled.json).toMatchObject({ status: "CANCELED" })
      expect(yield* storedContent(pending.contentId)).toMatchObject({ status: "withdrawn" })
      expectError(yield* decide(pending.requestId, "cancel", token("member06")), 400, "REVIEW_NOT_DECIDABLE", "twice")
      // An administrator cannot decide a canceled request either.
      expectError(yield* decide(pending.requestId, "approve", token("admin"), { visibility: "everyone" }), 400, "REVIEW_NOT_DECIDABLE")

      const sentBack = yield* submitted("member06")
      yield* decide(sentBack.requestId, "request-changes", token("admin"), { note: "Shorter" })
      expect((yield* decide(sentBack.requestId, "cancel", token("member06"))).json).toMatchObject({ status: "CANCELED", decisionNote: "Shorter" })
    }))

  it.effect("deciding is for organization admins: members, team admins and the submitter get 403; an absent request 404", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const { requestId } = yield* submitted("member08")
      for (const caller of ["member08", "viewer", "teamAdmin", "external"]) {
        expectError(yield* decide(requestId, "approve", token(caller), { visibility: "everyone" }), 403, "FORBIDDEN", `${caller} approve`)
        expectError(yield* decide(requestId, "reject", token(caller), {}), 403, "FORBIDDEN", `${caller} reject`)
        expectError(yield* decide(requestId, "request-changes", token(caller), { note: "x" }), 403, "FORBIDDEN", `${caller} request-changes`)
      }
      // Another organization's admin: the request is absent to them.
      expectError(yield* decide(requestId, "reject", token("otto"), {}), 404, "NOT_FOUND", "otto")
      expectError(yield* decide("crr_nothing", "reject", token("admin"), {}), 404, "NOT_FOUND", "absent")
      expect((yield* raw("GET", `/v1/content-review-requests/${requestId}`, { token: token("admin") })).json.status).toBe("PENDING")
      // Deciding needs no content:write: an admin's token without scopes decides.
      expect((yield* decide(requestId, "reject", token("unscoped"), {})).json.status).toBe("REJECTED")
    }))

  it.effect("bad tokens are 401 on every decision", () =>
    Effect.gen(function*() {
      const { badTokens } = yield* setup
      for (const [kind, bad] of Object.entries(badTokens)) {
        for (const decision of ["approve", "reject", "request-changes", "cancel"] as const) {
          expectError(yield* decide("crr_any", decision, bad, decision === "cancel" ? undefined : { note: "x", visibility: "everyone" }), 401, "UNAUTHORIZED", `${kind} ${decision}`)
        }
      }
    }))
})
