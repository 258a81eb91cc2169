import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { fetchedAddresses } from "./support/adapters.js"
import { clearOfMinuteEnd, contributorsOnce, intakeCounts, post } from "./support/contributors.js"
import { TestServerLive } from "./support/server.js"

/**
 * Contributions that go to review, 3 a minute and 20 an hour per
 * person, shared across both document endpoints and all the person's
 * tokens. Over it: 429 REVIEW_SUBMISSION_LIMIT_REACHED with Retry-After,
 * and nothing is created.
 */
const setup = contributorsOnce
const document = { title: "For review", content: "Some text.", visibility: "everyone" }
const page = { url: "https://handbook.example.test/onboarding", visibility: "everyone" }

layer(TestServerLive, { excludeTestServices: true })("the review-submission limit", (it) => {
  it.effect("the fourth review-bound submission within a minute is 429 with Retry-After, across both endpoints and two tokens; nothing is created", () =>
    Effect.gen(function*() {
      const { result, secondToken, token } = yield* setup
      const first = token("member01")
      const second = yield* secondToken("member01")
      yield* clearOfMinuteEnd
      const granted = [
        yield* post("/v1/documents", first, document),
        yield* post("/v1/documents/from-url", second, page),
        yield* post("/v1/documents", second, document)
      ]
      expect(granted.map((response) => [response.status, response.json.mode])).toEqual([[201, "review"], [201, "review"], [201, "review"]])
      // Granted review submissions report the allowance left (the tightest limit on the call).
      expect(granted.map((response) => response.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"])

      const before = yield* intakeCounts(result.organizationId)
      const fetchesBefore = fetchedAddresses.length
      for (const [path, via, body] of [["/v1/documents", first, document], ["/v1/documents/from-url", first, page], ["/v1/documents", second, document]] as const) {
        const refused = yield* post(path, via, body)
        expect(refused.status, path).toBe(429)
        expect(refused.json).toEqual({
          _tag: "TooManyRequests",
          code: "REVIEW_SUBMISSION_LIMIT_REACHED",
          message: "Review-submission allowance used; nothing was created",
          limit: 3,
          retryAfterSeconds: expect.any(Number),
          requestId: expect.any(String)
        })
        const retryAfter = refused.headers.get("retry-after")
        expect(retryAfter).toMatch(/^[1-9]\d*$/)
        expect(Number(retryAfter)).toBe(refused.json.retryAfterSeconds)
        expect(Number(retryAfter)).toBeLessThanOrEqual(60)
      }
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      // The limited from-url call fetched nothing.
      expect(fetchedAddresses.length).toBe(fetchesBefore)
    }))

  it.effect("the limit is per person: another member still submits", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      const response = yield* post("/v1/documents", token("member02"), document)
      expect([response.status, response.json.mode]).toEqual([201, "review"])
    }))

  it.effect("published submissions do not count: a team admin publishes many, then still has a review submission", () =>
    Effect.gen(function*() {
      const { teamId, token } = yield* setup
      yield* clearOfMinuteEnd
      for (let i = 0; i < 5; i++) {
        const published = yield* post("/v1/documents", token("teamAdmin"), { ...document, visibility: "teams", teamIds: [teamId("ops")] })
        expect(published.json.mode).toBe("published")
        // A published call is not counted against the review allowance, so reports none of it.
        expect(published.headers.get("ratelimit-limit")).not.toBe("3")
      }
      const review = yield* post("/v1/documents", token("teamAdmin"), document)
      expect([review.status, review.json.mode, review.headers.get("ratelimit-remaining")]).toEqual([201, "review", "2"])
    }))

  it.effect("a refused submission is not counted: invalid bodies and unknown teams leave the allowance whole", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      yield* clearOfMinuteEnd
      for (let i = 0; i < 4; i++) {
        expect((yield* post("/v1/documents", token("member03"), { ...document, title: "" })).status).toBe(400)
        expect((yield* post("/v1/documents", token("member03"), { ...document, visibility: "teams", teamIds: ["team_unknown"] })).status).toBe(400)
      }
      const granted = yield* post("/v1/documents", token("member03"), document)
      expect([granted.status, granted.headers.get("ratelimit-remaining")]).toEqual([201, "2"])
    }))

  it.effect("a refused submission is not counted: from-url calls answered 400 UNFETCHABLE_ADDRESS leave the allowance whole", () =>
    Effect.gen(function*() {
      const { token } = yield* setup
      yield* clearOfMinuteEnd
      const unreachable = { ...page, url: "https://nowhere.example.test/missing" }
      for (let i = 0; i < 2; i++) {
        const refused = yield* post("/v1/documents/from-url", token("member09"), unreachable)
        expect([refused.status, refused.json.code]).toEqual([400, "UNFETCHABLE_ADDRESS"])
        // A refused call reports no allowance it did not use.
        expect(refused.headers.get("ratelimit-limit")).not.toBe("3")
      }
      const granted = []
      for (let i = 0; i < 3; i++) granted.push(yield* post("/v1/documents", token("member09"), document))
      expect(granted.map((response) => [response.status, response.headers.get("ratelimit-remaining")])).toEqual([
        [201, "2"],
        [201, "1"],
        [201, "0"]
      ])
    }))

  it.effect("the count stays exact under concurrency: of six review-bound submissions sent at once, exactly three are created", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      yield* clearOfMinuteEnd
      const before = yield* intakeCounts(result.organizationId)
      const responses = yield* Effect.all(
        Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0 ? post("/v1/documents", token("member10"), document) : post("/v1/documents/from-url", token("member10"), page)),
        { concurrency: "unbounded" }
      )
      expect(responses.map((response) => response.status).sort()).toEqual([201, 201, 201, 429, 429, 429])
      const after = yield* intakeCounts(result.organizationId)
      expect(after.reviews - before.reviews).toBe(3)
      expect(after.content - before.content).toBe(3)
    }))
})
