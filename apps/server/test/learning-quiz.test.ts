import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { forkliftQuestions } from "@tks/core/testing/learning"
import { EnrollmentId } from "@tks/domain/ids"
import { badTokens, callerKinds } from "./support/callers.js"
import { learnersOnce, readQuiz } from "./support/learners.js"
import { expectError } from "./support/responses.js"
import { clientFor, TestServerLive } from "./support/server.js"

/** GET /v1/me/enrollments/{id}/quiz: the learner's own quiz, never its answers (a contract addition). */
const setup = learnersOnce

layer(TestServerLive, { excludeTestServices: true })("GET /v1/me/enrollments/{id}/quiz", (it) => {
  it.effect("a READY quiz lists its questions with their choices, and no correct answer or explanation", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const response = yield* readQuiz(result.ids.enrollments.leaForklift!, token("lea"))
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        enrollmentId: result.ids.enrollments.leaForklift,
        lessonId: result.ids.lessons.forklift,
        title: "Forklift safety",
        status: "READY",
        difficulty: "MODERATE",
        failureReason: null,
        questions: forkliftQuestions.map(({ choices, kind, number, question }) => ({ number, kind, question, choices: choices ?? [] })),
        enrollmentStatus: "in_progress",
        attempts: 0
      })
      expect(response.text).not.toContain("correctAnswer")
      expect(response.text).not.toContain("explanation")
      // The cloze answers are nowhere in the body.
      expect(response.text).not.toContain("tagged")
      expect(response.text).not.toContain("stacked no higher than 3")
    }))

  it.effect("a completed enrollment still shows its quiz and attempts; the typed client decodes it", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const client = yield* clientFor(token("lea"))
      const quiz = yield* client.learning.quiz({ path: { id: EnrollmentId.make(result.ids.enrollments.leaClosed!) } })
      expect(quiz).toMatchObject({ status: "READY", enrollmentStatus: "completed", attempts: 1 })
      expect(quiz.questions).toHaveLength(forkliftQuestions.length)
    }))

  it.effect("a quiz still being prepared (or failed) lists no questions", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const response = yield* readQuiz(result.ids.enrollments.leaEmpty!, token("lea"))
      expect(response.status).toBe(200)
      expect(["PENDING", "FAILED"]).toContain(response.json.status)
      expect(response.json.questions).toEqual([])
      expect(response.json.title).toBe("Empty lesson")
    }))

  it.effect("only the learner reads their quiz: every other caller of the organization, and another organization's admin, gets 404", () =>
    Effect.gen(function*() {
      const { result, token, tokens } = yield* setup
      const enrollmentId = result.ids.enrollments.leaForklift!
      for (const kind of callerKinds) expectError(yield* readQuiz(enrollmentId, tokens[kind]), 404, "NOT_FOUND", kind)
      expectError(yield* readQuiz(enrollmentId, token("max")), 404, "NOT_FOUND")
      expectError(yield* readQuiz("enr_doesnotexist", token("lea")), 404, "NOT_FOUND")
    }))

  it.effect("no token, or a bad, expired or revoked one, is 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* readQuiz(result.ids.enrollments.leaForklift!, tokens[kind]), 401, "UNAUTHORIZED", kind)
      }
    }))
})
