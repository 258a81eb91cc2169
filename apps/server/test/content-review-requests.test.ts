import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ReviewRequestId } from "@tks/domain/ids"
import { tamperCursor } from "./support/cursors.js"
import { contributorsOnce, post } from "./support/contributors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/content-review-requests and /{id} (also the
 * list_content_review_requests and get_content_review_request tools): a reviewer
 * (organization admin) sees the whole queue, anyone else only their own.
 * The queue: member01, member02 and the viewer each send documents to
 * review (oldest first: m1 "One", m2 "Two", viewer "Three", m1 "Four");
 * an admin rejects "Two".
 */
const setup = Effect.gen(function*() {
  const contributors = yield* contributorsOnce
  return { ...contributors, queue: yield* queueOnce }
})

const submit = (token: string, title: string) =>
  Effect.map(post("/v1/documents", token, { title, content: "Text.", visibility: "everyone" }), (response) => {
    expect(response.json.mode).toBe("review")
    return response.json.reviewRequestId as string
  })

let queue: Record<"one" | "two" | "three" | "four", string> | undefined
const queueOnce = Effect.suspend(() =>
  queue !== undefined ? Effect.succeed(queue) : Effect.gen(function*() {
    const { token } = yield* contributorsOnce
    const made = {
      one: yield* submit(token("member01"), "One"),
      two: yield* submit(token("member02"), "Two"),
      three: yield* submit(token("viewer"), "Three"),
      four: yield* submit(token("member01"), "Four")
    }
    expect((yield* post(`/v1/content-review-requests/${made.two}/reject`, token("admin"), { note: "Off topic" })).status).toBe(200)
    queue = made
    return made
  })
)

const list = (token: string | undefined, query = "") => raw("GET", `/v1/content-review-requests${query}`, { token })
const titles = (response: { json: { data: ReadonlyArray<{ title: string }> } }) => response.json.data.map((request) => request.title)

layer(TestServerLive, { excludeTestServices: true })("the content-review queue", (it) => {
  it.effect("a reviewer (every organization admin) sees the whole queue, newest first", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      for (const caller of ["owner", "admin", "billingAdmin"]) {
        const response = yield* list(token(caller))
        expect(response.status, caller).toBe(200)
        expect(titles(response), caller).toEqual(["Four", "Three", "Two", "One"])
        expect(response.json.nextCursor).toBeNull()
      }
    }))

  it.effect("anyone else sees only their own submissions; a team admin is no reviewer", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      expect(titles(yield* list(token("member01")))).toEqual(["Four", "One"])
      expect(titles(yield* list(token("viewer")))).toEqual(["Three"])
      expect(titles(yield* list(token("teamAdmin")))).toEqual([])
      // mine=false does not widen a non-reviewer's view.
      expect(titles(yield* list(token("member02"), "?mine=false"))).toEqual(["Two"])
    }))

  it.effect("the request's fields: status, resource, kind, title, content, submitter, decision, times and links", () =>
    Effect.gen(function*() {
      const { queue, token, userId } = yield* setup
      const response = yield* raw("GET", `/v1/content-review-requests/${queue.two}`, { token: token("member02") })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        id: queue.two,
        status: "REJECTED",
        resourceType: "document",
        kind: "content",
        title: "Two",
        contentId: expect.stringMatching(/^cnt_/),
        submitter: { id: userId("member02"), name: "Member 02" },
        decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        decisionNote: "Off topic",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/Z$/),
        url: `http://localhost:3000/v1/content-review-requests/${queue.two}`,
        contentUrl: `http://localhost:3000/v1/content/${response.json.contentId}`
      })
      const pending = yield* raw("GET", `/v1/content-review-requests/${queue.one}`, { token: token("admin") })
      expect(pending.json).toMatchObject({ status: "PENDING", decidedAt: null, decisionNote: null })
    }))

  it.effect("filters: status, resourceType, kind and mine", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const admin = token("admin")
      expect(titles(yield* list(admin, "?status=PENDING"))).toEqual(["Four", "Three", "One"])
      expect(titles(yield* list(admin, "?status=REJECTED"))).toEqual(["Two"])
      expect(titles(yield* list(admin, "?status=APPROVED"))).toEqual([])
      expect(titles(yield* list(admin, "?resourceType=document&kind=content"))).toEqual(["Four", "Three", "Two", "One"])
      expect(titles(yield* list(admin, "?resourceType=video"))).toEqual([])
      expect(titles(yield* list(admin, "?kind=issue-only"))).toEqual([])
      // A reviewer's own submissions: none.
      expect(titles(yield* list(admin, "?mine=true"))).toEqual([])
      expect(titles(yield* list(token("member01"), "?mine=true&status=PENDING"))).toEqual(["Four", "One"])
    }))

  it.effect("submitterId: a reviewer's filter; anyone else using it is 403", () =>
    Effect.gen(function*() {
      const { token, userId } = yield* setup
      expect(titles(yield* list(token("owner"), `?submitterId=${userId("member01")}`))).toEqual(["Four", "One"])
      expect(titles(yield* list(token("owner"), `?submitterId=${userId("member01")}&mine=true`))).toEqual([])
      for (const caller of ["member01", "viewer", "teamAdmin"]) {
        expectError(yield* list(token(caller), `?submitterId=${userId(caller)}`), 403, "FORBIDDEN", caller)
      }
    }))

  it.effect("the typed client reads the queue and one request", () =>
    Effect.gen(function*() {
      const { queue, token } = yield* setup
      const client = yield* clientFor(token("admin"))
      const page = yield* client.contentReview.list({ urlParams: { status: "PENDING", mine: false, limit: 2 } })
      expect(page.data.map((request) => request.title)).toEqual(["Four", "Three"])
      expect((yield* client.contentReview.get({ path: { id: ReviewRequestId.make(queue.one) } })).title).toBe("One")
    }))

  it.effect("bad filter values are 400", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      for (const query of ["?status=pending", "?resourceType=pdf", "?kind=other", "?mine=yes", "?limit=0", "?limit=101"]) {
        expectError(yield* list(token("admin"), query), 400, "VALIDATION_ERROR", query)
      }
    }))

  it.effect("pages of one walk the queue once, newest first; a tampered cursor is 400", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const walked = yield* walkPages("/v1/content-review-requests", token("admin"), 1)
      expect(walked.rows.map((row) => row.title)).toEqual(["Four", "Three", "Two", "One"])
      const first = yield* list(token("admin"), "?limit=2")
      expectError(yield* list(token("admin"), `?limit=2&cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`), 400, "INVALID_CURSOR")
      // A cursor is bound to its listing: the same cursor with another filter is refused.
      expectError(yield* list(token("admin"), `?limit=2&status=PENDING&cursor=${encodeURIComponent(first.json.nextCursor)}`), 400, "INVALID_CURSOR")
    }))

  it.effect("one request: a reviewer reads any; the submitter their own; anyone else, or another organization, gets 404", () =>
    Effect.gen(function*() {
      const { queue, token } = yield* setup
      const path = `/v1/content-review-requests/${queue.three}`
      for (const caller of ["owner", "admin", "billingAdmin", "viewer"]) expect((yield* raw("GET", path, { token: token(caller) })).status, caller).toBe(200)
      for (const caller of ["member01", "teamAdmin", "otto"]) expectError(yield* raw("GET", path, { token: token(caller) }), 404, "NOT_FOUND", caller)
      expectError(yield* raw("GET", "/v1/content-review-requests/crr_nothing", { token: token("admin") }), 404, "NOT_FOUND")
    }))

  it.effect("the caller matrix: an external account has no content-review access; bad tokens are 401", () =>
    Effect.gen(function*() {
      const { badTokens, queue, token } = yield* setup
      expectError(yield* list(token("external")), 403, "FORBIDDEN")
      expectError(yield* raw("GET", `/v1/content-review-requests/${queue.one}`, { token: token("external") }), 404, "NOT_FOUND")
      // Reading the lane needs no content:write.
      expect((yield* list(token("unscoped"))).status).toBe(200)
      for (const [kind, bad] of Object.entries(badTokens)) {
        expectError(yield* list(bad), 401, "UNAUTHORIZED", kind)
        expectError(yield* raw("GET", `/v1/content-review-requests/${queue.one}`, { token: bad }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
