import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assigners, elsewhere as assignersElsewhere } from "@tks/core/testing/assigners"
import { elsewhere as quizzersElsewhere, quizco } from "@tks/core/testing/pop-quizzes"
import { post, setUpCallers, trainingState } from "./support/assigners.js"
import { once } from "./support/once.js"
import { DatabaseProxy, OutageServerLive } from "./support/outage.js"
import { popQuizState } from "./support/pop-quizzes.js"
import type { RawResponse } from "./support/server.js"

/**
 * A connection lost in the middle of a write, inside its transaction: the
 * transaction cannot even roll back on the dead connection (@effect/sql
 * makes that failed ROLLBACK a defect), and the route used to answer 500.
 * Nothing was applied, so it is 503 with Retry-After: the caller retries.
 */
const quizzers = once(setUpCallers(quizco, quizzersElsewhere))
const assigning = once(setUpCallers(assigners, assignersElsewhere))

const expectRetryLater = (response: RawResponse, label: string) => {
  expect(response.status, `${label}: ${response.text}`).toBe(503)
  expect(response.json, label).toMatchObject({ _tag: "ServiceUnavailable", code: "SERVICE_UNAVAILABLE", message: expect.any(String) })
  expect(Number(response.headers.get("retry-after")), label).toBeGreaterThan(0)
}

layer(OutageServerLive, { excludeTestServices: true })("the database connection lost mid-request", (it) => {
  it.effect("POST /v1/pop-quizzes, cut while enqueueing its jobs: 503 with Retry-After, nothing sent; the same call then succeeds", () =>
    Effect.gen(function*() {
      const { contentId, freshToken, orgId, userId } = yield* quizzers
      const proxy = yield* DatabaseProxy
      const body = { contentId: contentId("manual"), audience: "users", userIds: [userId("lena"), userId("max")], dueDate: "2099-03-01T12:00:00+02:00" }
      const token = yield* freshToken("admin")
      const before = yield* popQuizState(orgId)

      yield* proxy.cutOn("INSERT INTO jobs")
      expectRetryLater(yield* post("/v1/pop-quizzes", token, body), "cut while enqueueing")
      expect(yield* popQuizState(orgId)).toEqual(before)

      const retried = yield* post("/v1/pop-quizzes", token, body)
      expect(retried.status, retried.text).toBe(201)
    }), 60_000)

  it.effect("POST /v1/lessons/{id}/assignments, cut while enrolling: 503 with Retry-After, nobody assigned; the same call then succeeds", () =>
    Effect.gen(function*() {
      const { freshToken, lessonId, userId } = yield* assigning
      const proxy = yield* DatabaseProxy
      const lesson = lessonId("open20")
      const path = `/v1/lessons/${lesson}/assignments`
      const body = { audience: "users", userIds: [userId("ann")] }
      const token = yield* freshToken("admin")
      const before = yield* trainingState(lesson)

      yield* proxy.cutOn("INSERT INTO enrollments")
      expectRetryLater(yield* post(path, token, body), "cut while enrolling")
      expect(yield* trainingState(lesson)).toEqual(before)

      const retried = yield* post(path, token, body)
      expect(retried.status, retried.text).toBe(200)
      expect(retried.json.assigned.map((row: { userId: string }) => row.userId)).toEqual([userId("ann")])
    }), 60_000)
})
