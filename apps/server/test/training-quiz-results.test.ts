import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { EnrollmentId } from "@tks/domain/ids"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Train Co (packages/core/testing/training-reads.ts): Lena's completed Basics has three attempts, two at the same instant. */
const setup = callerMatrixOnce(trainco)

const resultsOf = (id: string, token: string | undefined, query = "") => raw("GET", `/v1/enrollments/${id}/quiz-results${query}`, { token })

layer(TestServerLive, { excludeTestServices: true })("GET /v1/enrollments/{id}/quiz-results", (it) => {
  it.effect("the learner reads every attempt, newest first, each with its per-question results", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const response = yield* resultsOf(result.ids.enrollments.lenaBasicsDone!, result.tokens.lena)
      expect(response.status).toBe(200)
      expect(response.json.nextCursor).toBeNull()
      expect(response.json.data).toHaveLength(3)
      expect(response.json.data[0]).toEqual({
        id: expect.stringMatching(/^qat_/),
        status: "completed",
        completedAt: "2026-03-10T00:00:00.000Z",
        score: 1,
        resultsSummary: "2 of 2 correct",
        questions: [
          { number: 1, question: "Question 1?", isCorrect: true, score: 1, answer: "Knees", correctAnswer: "Knees", explanation: "Because Knees." },
          { number: 2, question: "Question 2?", isCorrect: true, score: 1, answer: null, correctAnswer: "Straight back", explanation: "" }
        ]
      })
      for (const attempt of response.json.data.slice(1)) {
        expect(attempt).toMatchObject({ completedAt: "2026-03-05T00:00:00.000Z", score: 0.5 })
        expect(attempt.questions.map((q: any) => q.number)).toEqual([1, 2])
      }
    }))

  it.effect("owner, admin and billing admin read anyone's; an enrollment without attempts is an empty page", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const mine = yield* resultsOf(result.ids.enrollments.lenaBasicsDone!, result.tokens.lena)
      for (const kind of ["owner", "admin", "billingAdmin"] as const) {
        const page = yield* (yield* clientFor(tokens[kind])).training.quizResults({
          path: { id: EnrollmentId.make(result.ids.enrollments.lenaBasicsDone!) },
          urlParams: {}
        })
        expect(page.data.map((row) => row.id), kind).toEqual(mine.json.data.map((row: any) => row.id))
      }
      const victor = yield* resultsOf(result.ids.enrollments.victorTeam!, tokens.viewer)
      expect(victor.json).toEqual({ data: [], nextCursor: null })
      // A departed learner's results stay readable by an admin.
      expect((yield* resultsOf(result.ids.enrollments.gwenBasics!, tokens.admin)).status).toBe(200)
    }))

  it.effect("her manager, her team's admin, an external account and another organization's admin get 404, as for unknown ids", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = result.ids.enrollments.lenaBasicsDone!
      for (const kind of ["viewer", "teamAdmin", "external", "otherOrgAdmin"] as const) {
        expectError(yield* resultsOf(id, tokens[kind]), 404, "NOT_FOUND", kind)
      }
      expectError(yield* resultsOf(result.ids.enrollments.victorTeam!, result.tokens.lena), 404, "NOT_FOUND", "Lena on Victor's")
      expectError(yield* resultsOf("enr_nope", tokens.admin), 404, "NOT_FOUND", "unknown")
    }))

  it.effect("pages of 1 walk every attempt once, newest first, the tie included", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const path = `/v1/enrollments/${result.ids.enrollments.lenaBasicsDone}/quiz-results`
      const whole = yield* raw("GET", path, { token: result.tokens.lena })
      const walk = yield* walkPages(path, result.tokens.lena!, 1)
      expect(walk.rows).toEqual(whole.json.data)
      expect(walk.pages).toBe(3)
    }))

  it.effect("a tampered or made-up cursor, or one of another enrollment, is 400 INVALID_CURSOR; a bad limit is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = result.ids.enrollments.lenaBasicsDone!
      const first = yield* resultsOf(id, tokens.admin, "?limit=1")
      const cursor: string = first.json.nextCursor
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["tampered", id, `?cursor=${encodeURIComponent(tamperCursor(cursor))}`],
        ["made up", id, "?cursor=nope"],
        ["another enrollment", result.ids.enrollments.gwenBasics!, `?cursor=${encodeURIComponent(cursor)}`]
      ]
      for (const [label, enrollment, query] of cases) expectError(yield* resultsOf(enrollment, tokens.admin, query), 400, "INVALID_CURSOR", label)
      for (const limit of ["0", "101", "x"]) expectError(yield* resultsOf(id, tokens.admin, `?limit=${limit}`), 400, "VALIDATION_ERROR", limit)
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* resultsOf(result.ids.enrollments.lenaBasicsDone!, tokens[kind]), 401, "UNAUTHORIZED", kind)
      }
    }))
})
