import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testVideos } from "./support/adapters.js"
import { contributorsOnce, post } from "./support/contributors.js"
import { feedCaughtUp } from "./support/journal.js"
import { expectError } from "./support/responses.js"
import { importFixture, raw, TestServerLive } from "./support/server.js"

/**
 * The content acts leave their trace (docs/domain.md, Events and the audit
 * log): adding a document or a hosted video, sending one to review, the
 * review decisions, and the workers' processing, each one audit row and its
 * events in its own transaction, read back through GET /v1/events and GET
 * /v1/audit-events (which encode every event through its type's schema). A
 * refused act leaves neither. Each member sends at most three documents to
 * review here (the review-submission limit).
 */
const setup = contributorsOnce

const events = (type: string) =>
  Effect.gen(function*() {
    const { result, token } = yield* setup
    yield* feedCaughtUp(token("owner"), result.organizationId)
    const response = yield* raw("GET", `/v1/events?type=${type}&limit=100`, { token: token("owner") })
    expect(response.status, type).toBe(200)
    return response.json.data as Array<any>
  })

const about = (type: string, contentId: string) =>
  Effect.map(events(type), (all) => all.filter((event) => event.data.content?.id === contentId))

const auditRows = (query: string) =>
  Effect.gen(function*() {
    const { token } = yield* setup
    const response = yield* raw("GET", `/v1/audit-events?${query}&limit=100`, { token: token("owner") })
    expect(response.status, query).toBe(200)
    return response.json.data as Array<any>
  })

/** Waits (polling the feed) until the workers have recorded `type` for the content; the test's own timeout bounds it. */
const recorded = (type: string, contentId: string) =>
  Effect.gen(function*() {
    while (true) {
      const found = yield* about(type, contentId)
      if (found.length > 0) return found
      yield* Effect.sleep("200 millis")
    }
  })

/** A document an admin adds for everyone (published at once, then processed): its content id. */
const published = (title: string, content: string) =>
  Effect.gen(function*() {
    const { token } = yield* setup
    const response = yield* post("/v1/documents", token("admin"), { title, content, visibility: "everyone" })
    expect(response.json.mode).toBe("published")
    return response.json.contentId as string
  })

const submitted = (submitter: string, title: string) =>
  Effect.gen(function*() {
    const { token } = yield* setup
    const response = yield* post("/v1/documents", token(submitter), { title, content: "Body.", visibility: "everyone" })
    expect(response.json.mode).toBe("review")
    return { requestId: response.json.reviewRequestId as string, contentId: response.json.contentId as string }
  })

const decide = (requestId: string, decision: string, token: string, body?: unknown) =>
  body === undefined
    ? raw("POST", `/v1/content-review-requests/${requestId}/${decision}`, { token })
    : post(`/v1/content-review-requests/${requestId}/${decision}`, token, body)

layer(TestServerLive, { excludeTestServices: true })("the content acts in the journal", (it) => {
  describe("adding content", () => {
    it.effect("a document an admin adds is one content.published and one audit row naming the content, its audience and where the call came from", () =>
      Effect.gen(function*() {
        const { teamId, token, userId } = yield* setup
        const response = yield* raw("POST", "/v1/documents", {
          token: token("admin"),
          body: JSON.stringify({ title: "Journal: travel", content: "# Travel\n\nBook through the portal.", visibility: "teams", teamIds: [teamId("ops")] }),
          headers: { "user-agent": "journal-content/1.0", "x-request-id": "req-journal-doc-1" }
        })
        expect(response.json.mode).toBe("published")
        const contentId = response.json.contentId as string

        const published = yield* about("content.published", contentId)
        expect(published).toHaveLength(1)
        expect(published[0]).toMatchObject({
          type: "content.published",
          actor: { type: "person", personId: userId("admin"), tokenId: expect.stringMatching(/^tok_/) },
          data: { content: { id: contentId, title: "Journal: travel", kind: "document" } }
        })
        // The worker's processing of it is an act of its own, with a row of its own: not this one.
        const rows = yield* auditRows(`target=${contentId}&type=content.published`)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          action: "content.published",
          actor: { type: "person", personId: userId("admin") },
          targets: [{ type: "content", id: contentId }],
          changes: {
            status: { new: "published" },
            title: { new: "Journal: travel" },
            visibility: { new: "teams" },
            teamIds: { new: [teamId("ops")] }
          },
          requestId: "req-journal-doc-1",
          userAgent: "journal-content/1.0"
        })
      }))

    it.effect("a page fetched from a URL is content.published too; its address (which may carry secrets) is not in the audit row", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const response = yield* post("/v1/documents/from-url", token("owner"), { url: "https://handbook.example.test/onboarding", visibility: "everyone" })
        expect(response.json.mode).toBe("published")
        const contentId = response.json.contentId as string
        expect((yield* about("content.published", contentId)).map((event) => event.data.content)).toEqual([
          { id: contentId, title: "Example Handbook", kind: "document" }
        ])
        const [row] = yield* auditRows(`target=${contentId}&type=content.published`)
        expect(JSON.stringify(row)).not.toContain("handbook.example.test")
      }))

    it.effect("a draft is one content.drafted audit row and no event: nobody can read it yet", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const response = yield* post("/v1/documents", token("admin"), { title: "Journal: draft", content: "Draft body.", visibility: "everyone", asDraft: true })
        expect(response.json.draft).toBe(true)
        const contentId = response.json.contentId as string
        expect((yield* auditRows(`target=${contentId}`)).map((row) => [row.action, row.changes.status])).toEqual([["content.drafted", { new: "draft" }]])
        expect(yield* about("content.published", contentId)).toEqual([])
      }))

    it.effect("a document bound for review is review_request.submitted, about its submitter, and is not published", () =>
      Effect.gen(function*() {
        const { userId } = yield* setup
        const { contentId, requestId } = yield* submitted("member13", "Journal: please review")
        const [event, ...more] = yield* about("review_request.submitted", contentId)
        expect(more).toEqual([])
        expect(event).toMatchObject({
          actor: { type: "person", personId: userId("member13") },
          data: {
            reviewRequest: { id: requestId, kind: "content", resourceType: "document" },
            content: { id: contentId, title: "Journal: please review", kind: "document" },
            person: { id: userId("member13"), name: "Member 13", email: "member13@contributors.test" }
          }
        })
        const rows = yield* auditRows(`target=${requestId}`)
        expect(rows.map((row) => row.action)).toEqual(["review_request.submitted"])
        expect(rows[0].targets).toEqual([
          { type: "review_request", id: requestId },
          { type: "content", id: contentId },
          { type: "person", id: userId("member13") }
        ])
        expect(yield* about("content.published", contentId)).toEqual([])
      }))

    it.effect("a hosted video is content.published of kind video; adding one already in the library is no act and records nothing", () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const url = `https://www.youtube.com/watch?v=${testVideos.safety}`
        const added = yield* post("/v1/videos/videohost", token("admin"), { url, visibility: "everyone" })
        expect(added.json.alreadyInLibrary).toBe(false)
        const contentId = added.json.contentId as string
        expect((yield* about("content.published", contentId)).map((event) => event.data.content)).toEqual([
          { id: contentId, title: "Forklift safety", kind: "video" }
        ])
        expect((yield* post("/v1/videos/videohost", token("owner"), { url, visibility: "everyone" })).json.alreadyInLibrary).toBe(true)
        const rows = yield* auditRows(`target=${contentId}&type=content.published`)
        expect(rows.map((row) => row.actor.personId)).toEqual([userId("admin")])
        expect(yield* about("content.published", contentId)).toHaveLength(1)
      }))

    it.effect("an add refused (an unknown team, a video the caller may not publish) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { elsewhere, token, userId } = yield* setup
        const before = yield* auditRows(`actor=${userId("teamAdmin")}`)
        const unknownTeam = yield* post("/v1/documents", token("teamAdmin"), {
          title: "Journal: refused",
          content: "Body.",
          visibility: "teams",
          teamIds: [elsewhere.ids.teams.foreign]
        })
        expect(unknownTeam.json.code).toBe("UNKNOWN_TEAM")
        expectError(
          yield* post("/v1/videos/videohost", token("teamAdmin"), { url: `https://youtu.be/${testVideos.race}`, visibility: "everyone" }),
          403,
          "FORBIDDEN"
        )
        expect(yield* auditRows(`actor=${userId("teamAdmin")}`)).toEqual(before)
        const titles = (yield* events("content.published")).map((event) => event.data.content.title)
        expect(titles).not.toContain("Journal: refused")
        expect(titles).not.toContain("Added twice at once")
      }))
  })

  describe("processing", () => {
    it.effect("processing that completes is content.processed by the worker (the system, no request behind it), once", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const contentId = yield* published("Journal: processed", "# Lifting\n\n- Gloves: gloves must be worn.\n")
        const [event, ...more] = yield* recorded("content.processed", contentId)
        expect(more).toEqual([])
        expect(event).toMatchObject({ actor: { type: "system", name: "worker" }, data: { content: { id: contentId, kind: "document" } } })
        const rows = yield* auditRows(`target=${contentId}&type=content.processed`)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          actor: { type: "system", name: "worker" },
          targets: [{ type: "content", id: contentId }],
          changes: { processingStatus: { new: "COMPLETED" }, indexingStatus: { new: "COMPLETED" } },
          requestId: null,
          clientIp: null,
          userAgent: null
        })
        const detail = yield* raw("GET", `/v1/content/${contentId}`, { token: token("admin") })
        expect(detail.json).toMatchObject({ processingStatus: "COMPLETED", indexingStatus: "COMPLETED" })
        expect(yield* about("content.processing_failed", contentId)).toEqual([])
      }))

    it.effect("processing that fails for good is content.processing_failed with the reason the content shows, and no content.processed", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const contentId = yield* published("Journal: failing", "# Broken\n\nExtraction fails: the model is unavailable\n")
        const [event, ...more] = yield* recorded("content.processing_failed", contentId)
        expect(more).toEqual([])
        const reason = "Knowledge extraction failed: the model is unavailable"
        expect(event).toMatchObject({
          actor: { type: "system", name: "worker" },
          data: { content: { id: contentId, title: "Journal: failing", kind: "document" }, reason }
        })
        expect((yield* raw("GET", `/v1/content/${contentId}`, { token: token("admin") })).json.processingError).toBe(reason)
        expect((yield* auditRows(`target=${contentId}&type=content.processing_failed`))[0].changes).toEqual({
          processingStatus: { new: "FAILED" },
          indexingStatus: { new: "FAILED" }
        })
        expect(yield* about("content.processed", contentId)).toEqual([])
      }))
  })

  describe("the review lane", () => {
    it.effect("an approval is review_request.decided (APPROVED) and content.published in one audit row, with the audience the reviewer chose", () =>
      Effect.gen(function*() {
        const { teamId, token, userId } = yield* setup
        const { contentId, requestId } = yield* submitted("member14", "Journal: approve me")
        expect((yield* decide(requestId, "approve", token("admin"), { visibility: "teams", teamIds: [teamId("alpha")], note: "Welcome" })).status).toBe(200)

        const decided = (yield* about("review_request.decided", contentId))
        expect(decided).toHaveLength(1)
        expect(decided[0]).toMatchObject({
          actor: { type: "person", personId: userId("admin") },
          data: {
            reviewRequest: { id: requestId, kind: "content", resourceType: "document" },
            decision: "APPROVED",
            note: "Welcome",
            content: { id: contentId, title: "Journal: approve me", kind: "document" },
            person: { id: userId("member14") }
          }
        })
        const published = yield* about("content.published", contentId)
        expect(published).toHaveLength(1)
        // Written by one statement, in order.
        expect(published[0].position).toBeGreaterThan(decided[0].position)

        const rows = yield* auditRows(`target=${requestId}`)
        expect(rows.map((row) => row.action)).toEqual(["review_request.decided", "review_request.submitted"])
        expect(rows[0].changes).toEqual({
          status: { old: "PENDING", new: "APPROVED" },
          decisionNote: { old: null, new: "Welcome" },
          contentStatus: { old: "in_review", new: "published" },
          visibility: { old: "admins", new: "teams" },
          teamIds: { new: [teamId("alpha")] }
        })
      }))

    it.effect("a rejection and a request for changes are review_request.decided, publishing nothing; a cancel is review_request.cancelled with no event", () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const rejected = yield* submitted("member15", "Journal: reject me")
        const changed = yield* submitted("member15", "Journal: change me")
        expect((yield* decide(rejected.requestId, "reject", token("billingAdmin"), { note: "Duplicate" })).status).toBe(200)
        expect((yield* decide(changed.requestId, "request-changes", token("owner"), { note: "Shorter, please" })).status).toBe(200)
        expect((yield* decide(changed.requestId, "cancel", token("member15"))).status).toBe(200)

        expect((yield* about("review_request.decided", rejected.contentId)).map((event) => [event.data.decision, event.data.note])).toEqual([
          ["REJECTED", "Duplicate"]
        ])
        expect((yield* about("review_request.decided", changed.contentId)).map((event) => [event.data.decision, event.data.note])).toEqual([
          ["CHANGES_REQUESTED", "Shorter, please"]
        ])
        expect(yield* about("content.published", rejected.contentId)).toEqual([])
        expect(yield* about("content.published", changed.contentId)).toEqual([])

        const [cancel] = yield* auditRows(`target=${changed.requestId}&type=review_request.cancelled`)
        expect(cancel).toMatchObject({
          actor: { type: "person", personId: userId("member15") },
          changes: { status: { old: "CHANGES_REQUESTED", new: "CANCELED" }, contentStatus: { old: "in_review", new: "withdrawn" } }
        })
        expect((yield* auditRows(`target=${changed.requestId}`)).map((row) => row.action)).toEqual([
          "review_request.cancelled",
          "review_request.decided",
          "review_request.submitted"
        ])
        const [reject] = yield* auditRows(`target=${rejected.requestId}&type=review_request.decided`)
        expect(reject.changes).toEqual({
          status: { old: "PENDING", new: "REJECTED" },
          decisionNote: { old: null, new: "Duplicate" },
          contentStatus: { old: "in_review", new: "rejected" }
        })
      }))

    it.effect("a decision refused (already decided, or not the caller's to cancel) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const { contentId, requestId } = yield* submitted("member16", "Journal: decided once")
        expect((yield* decide(requestId, "reject", token("admin"), {})).status).toBe(200)
        const before = yield* auditRows(`target=${requestId}`)
        expectError(yield* decide(requestId, "approve", token("admin"), { visibility: "everyone" }), 400, "REVIEW_NOT_DECIDABLE")
        expectError(yield* decide(requestId, "cancel", token("member17")), 404, "NOT_FOUND")
        expect(yield* auditRows(`target=${requestId}`)).toEqual(before)
        expect((yield* about("review_request.decided", contentId))).toHaveLength(1)
        expect(yield* about("content.published", contentId)).toEqual([])
      }))

    it.effect("a guide approved is published as kind guide; a decision on a request about an issue alone names no content", () =>
      Effect.gen(function*() {
        const imported = yield* importFixture({
          organization: { name: "Journal lane" },
          people: [
            { key: "boss", name: "Bo Boss", email: "boss@journal-lane.test", role: "admin", tokenScopes: [] },
            { key: "sam", name: "Sam Submitter", email: "sam@journal-lane.test", role: "viewer" }
          ],
          content: [{ key: "guide", type: "guide", title: "Loading guide", status: "in_review", visibility: "admins", body: "# Loading\n\nStack low." }],
          reviewRequests: [
            { key: "guideReview", content: "guide", submitter: "sam", resourceType: "guide" },
            { key: "issueReview", submitter: "sam", kind: "issue-only", title: "The dock map is wrong" }
          ]
        })
        const boss = imported.tokens.boss!
        const guideId = imported.ids.content.guide!
        expect((yield* decide(imported.ids.reviewRequests.guideReview!, "approve", boss, { visibility: "everyone" })).status).toBe(200)
        expect((yield* decide(imported.ids.reviewRequests.issueReview!, "reject", boss, { note: "Already fixed" })).status).toBe(200)

        // The approved guide's processing follows on its own time: only the decisions' events here.
        yield* feedCaughtUp(boss, imported.organizationId)
        const feed = ((yield* raw("GET", "/v1/events?limit=100", { token: boss })).json.data as Array<any>).filter((event) =>
          event.type !== "content.processed"
        )
        expect(feed.map((event) => [event.type, event.data.decision ?? null, event.data.content])).toEqual([
          ["review_request.decided", "APPROVED", { id: guideId, title: "Loading guide", kind: "guide" }],
          ["content.published", null, { id: guideId, title: "Loading guide", kind: "guide" }],
          ["review_request.decided", "REJECTED", null]
        ])
        expect(feed[2].data.reviewRequest).toEqual({ id: imported.ids.reviewRequests.issueReview, kind: "issue-only", resourceType: "document" })
        const rows = (yield* raw("GET", `/v1/audit-events?target=${imported.ids.reviewRequests.issueReview}`, { token: boss })).json.data
        expect(rows[0].targets).toEqual([
          { type: "review_request", id: imported.ids.reviewRequests.issueReview },
          { type: "person", id: imported.ids.people.sam }
        ])
      }))
  })
})
