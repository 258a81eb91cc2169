import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { forkliftAnswers, forkliftQuestions } from "@tks/core/testing/learning"
import { EnrollmentId } from "@tks/domain/ids"
import { badTokens, callerKinds } from "./support/callers.js"
import {
  attemptsOf,
  enrollmentRow,
  learnersOnce,
  masteryOf,
  obligationRow,
  readQuiz,
  submitAnswers
} from "./support/learners.js"
import { expectError } from "./support/responses.js"
import { clientFor, TestServerLive } from "./support/server.js"

/**
 * POST /v1/me/enrollments/{id}/quiz-attempts: scoring, the kept attempts,
 * and what a pass or a failure changes. Each test works
 * on its own learner of @tks/core/testing/learning: Lea passes, Max fails
 * then passes, Cody fails; the refusals use Cody's enrollment and change
 * nothing.
 */
const setup = learnersOnce
const day = 86_400_000

layer(TestServerLive, { excludeTestServices: true })("POST /v1/me/enrollments/{id}/quiz-attempts", (it) => {
  describe("a pass", () => {
    it.effect("4 of 5 right answers 201 with the quiz result, answers compared ignoring case and spacing", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const answers = forkliftAnswers(4).map((given) => given.number === 2 ? { ...given, answer: "  TAGGED " } : given)
        const response = yield* submitAnswers(result.ids.enrollments.leaForklift!, token("lea"), { answers })
        expect(response.status, response.text).toBe(201)
        expect(response.json).toEqual({
          id: expect.stringMatching(/^qat_/),
          status: "completed",
          completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          score: 0.8,
          resultsSummary: "4 of 5 correct (80%)",
          questions: forkliftQuestions.map((question, index) => ({
            number: question.number,
            question: question.question,
            isCorrect: index < 4,
            score: index < 4 ? 1 : 0,
            answer: answers[index]!.answer,
            correctAnswer: question.correctAnswer,
            explanation: question.explanation
          }))
        })
        const kept = yield* attemptsOf(result.ids.enrollments.leaForklift!)
        expect(kept.map((attempt) => [attempt.id, attempt.score, attempt.passed, attempt.results_summary])).toEqual([
          [response.json.id, 0.8, true, "4 of 5 correct (80%)"]
        ])
      }))

    it.effect("completes the enrollment (score, and the next retake 180 days on by the lesson's policy) and the lesson obligation", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const enrollment = (yield* enrollmentRow(result.ids.enrollments.leaForklift!))!
        expect(enrollment).toMatchObject({ status: "completed", score: 0.8 })
        expect(enrollment.retrain_at!.getTime() - enrollment.completed_at!.getTime()).toBe(180 * day)
        expect(yield* obligationRow(result.ids.obligations.leaLesson!)).toEqual({ status: "completed", completed_at: enrollment.completed_at })
        const quiz = yield* readQuiz(result.ids.enrollments.leaForklift!, token("lea"))
        expect(quiz.json).toMatchObject({ enrollmentStatus: "completed", attempts: 1 })
      }))

    it.effect("raises every topic the lesson covers to MASTERED (PARTIAL before, or none) and completes the topic and item obligations on them; other topics stay as they were", () =>
      Effect.gen(function*() {
        const { result } = yield* setup
        const lea = result.ids.people.lea!
        const { inspection, loading, parking } = result.ids.topics
        for (const topic of [inspection!, loading!]) expect((yield* masteryOf(lea, topic)).level).toBe("MASTERED")
        expect((yield* masteryOf(lea, parking!)).level).toBe("NONE")
        expect((yield* obligationRow(result.ids.obligations.leaInspection!))?.status).toBe("completed")
        expect((yield* obligationRow(result.ids.obligations.leaStacking!))?.status).toBe("completed")
        expect((yield* obligationRow(result.ids.obligations.leaParking!))?.status).toBe("active")
      }))

    it.effect("a completed enrollment takes no more attempts: 400 ENROLLMENT_COMPLETED and nothing is kept", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        for (const enrollment of [result.ids.enrollments.leaForklift!, result.ids.enrollments.leaClosed!]) {
          const before = (yield* attemptsOf(enrollment)).length
          expectError(yield* submitAnswers(enrollment, token("lea"), { answers: forkliftAnswers(5) }), 400, "ENROLLMENT_COMPLETED")
          expect(yield* attemptsOf(enrollment)).toHaveLength(before)
        }
      }))
  })

  describe("failed attempts", () => {
    it.effect("keep the enrollment and its obligation active, are all kept, and raise mastery to PARTIAL only where it was NONE", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const enrollmentId = result.ids.enrollments.maxForklift!
        const max = result.ids.people.max!
        const masteredBefore = yield* masteryOf(max, result.ids.topics.inspection!)

        const first = yield* submitAnswers(enrollmentId, token("max"), { answers: forkliftAnswers(2) })
        expect(first.json).toMatchObject({ score: 0.4, resultsSummary: "2 of 5 correct (40%)" })
        // Unanswered questions score 0 with a null answer.
        const second = yield* submitAnswers(enrollmentId, token("max"), { answers: forkliftAnswers(3).slice(0, 3) })
        expect(second.json).toMatchObject({ score: 0.6, resultsSummary: "3 of 5 correct (60%)" })
        expect(second.json.questions[4]).toMatchObject({ answer: null, isCorrect: false, score: 0 })

        expect(yield* enrollmentRow(enrollmentId)).toMatchObject({ status: "in_progress", completed_at: null, score: null })
        expect((yield* obligationRow(result.ids.obligations.maxLesson!))?.status).toBe("active")
        expect((yield* masteryOf(max, result.ids.topics.loading!)).level).toBe("PARTIAL")
        expect(yield* masteryOf(max, result.ids.topics.inspection!)).toEqual(masteredBefore)

        const passed = yield* submitAnswers(enrollmentId, token("max"), { answers: forkliftAnswers(5) })
        expect(passed.json).toMatchObject({ score: 1, resultsSummary: "5 of 5 correct (100%)" })
        const kept = yield* attemptsOf(enrollmentId)
        expect(kept.map((attempt) => [attempt.id, attempt.score, attempt.passed])).toEqual([
          [first.json.id, 0.4, false],
          [second.json.id, 0.6, false],
          [passed.json.id, 1, true]
        ])
        expect(kept[1]!.questions[4]!.answer).toBeNull()
        expect((yield* readQuiz(enrollmentId, token("max"))).json.attempts).toBe(3)
        expect((yield* obligationRow(result.ids.obligations.maxLesson!))?.status).toBe("completed")
      }))

    it.effect("complete a topic obligation that only a CONSULTED duty reaches (PARTIAL is enough), not one that expects MASTERED", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const response = yield* submitAnswers(result.ids.enrollments.codyForklift!, token("cody"), { answers: forkliftAnswers(0) })
        expect(response.json).toMatchObject({ score: 0, resultsSummary: "0 of 5 correct (0%)" })
        const cody = result.ids.people.cody!
        expect((yield* masteryOf(cody, result.ids.topics.loading!)).level).toBe("PARTIAL")
        expect((yield* obligationRow(result.ids.obligations.codyLoading!))?.status).toBe("completed")
        expect((yield* obligationRow(result.ids.obligations.codyInspection!))?.status).toBe("active")
      }))

    it.effect("leave a topic obligation active when the person holds its INFORMED duty at a tier senior to the duty's MIN_TIER (MASTERED expected)", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const response = yield* submitAnswers(result.ids.enrollments.sidForklift!, token("sid"), { answers: forkliftAnswers(0) })
        expect(response.json).toMatchObject({ score: 0 })
        expect((yield* masteryOf(result.ids.people.sid!, result.ids.topics.loading!)).level).toBe("PARTIAL")
        expect((yield* obligationRow(result.ids.obligations.sidLoading!))?.status).toBe("active")
      }))
  })

  describe("refusals change nothing", () => {
    it.effect("a quiz not READY yet (or failed) is 400 QUIZ_NOT_READY", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const enrollmentId = result.ids.enrollments.leaEmpty!
        expectError(yield* submitAnswers(enrollmentId, token("lea"), { answers: [] }), 400, "QUIZ_NOT_READY")
        expect(yield* attemptsOf(enrollmentId)).toEqual([])
      }))

    it.effect("a bad body is 400: not JSON, wrong types, a number below 1, a NUL, too long; a question the quiz lacks or answered twice is 400 INVALID_ANSWERS", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const enrollmentId = result.ids.enrollments.codyForklift!
        const before = (yield* attemptsOf(enrollmentId)).length
        const cases: Array<[unknown, string]> = [
          ["{\"answers\": [", "MALFORMED_JSON"],
          [{}, "VALIDATION_ERROR"],
          [{ answers: "12" }, "VALIDATION_ERROR"],
          [{ answers: [{ number: 0, answer: "12" }] }, "VALIDATION_ERROR"],
          [{ answers: [{ number: 1, answer: 12 }] }, "VALIDATION_ERROR"],
          [{ answers: [{ number: 1, answer: "1\u00002" }] }, "VALIDATION_ERROR"],
          [{ answers: [{ number: 1, answer: "x".repeat(1001) }] }, "VALIDATION_ERROR"],
          [{ answers: [{ number: 6, answer: "12" }] }, "INVALID_ANSWERS"],
          [{ answers: [{ number: 1, answer: "12" }, { number: 1, answer: "8" }] }, "INVALID_ANSWERS"]
        ]
        for (const [body, code] of cases) {
          expectError(yield* submitAnswers(enrollmentId, token("cody"), body), 400, code, JSON.stringify(body).slice(0, 60))
        }
        expect(yield* attemptsOf(enrollmentId)).toHaveLength(before)
      }))

    it.effect("only the learner submits: every other caller, and another organization's admin, gets 404; bad tokens 401", () =>
      Effect.gen(function*() {
        const { result, token, tokens } = yield* setup
        const enrollmentId = result.ids.enrollments.codyForklift!
        const before = (yield* attemptsOf(enrollmentId)).length
        const body = { answers: forkliftAnswers(5) }
        for (const kind of callerKinds) expectError(yield* submitAnswers(enrollmentId, tokens[kind], body), 404, "NOT_FOUND", kind)
        expectError(yield* submitAnswers(enrollmentId, token("lea"), body), 404, "NOT_FOUND")
        expectError(yield* submitAnswers("enr_doesnotexist", token("cody"), body), 404, "NOT_FOUND")
        for (const kind of badTokens) expectError(yield* submitAnswers(enrollmentId, tokens[kind], body), 401, "UNAUTHORIZED", kind)
        expect(yield* attemptsOf(enrollmentId)).toHaveLength(before)
        expect((yield* enrollmentRow(enrollmentId))?.status).toBe("in_progress")
      }))
  })

  it.effect("the typed client submits and decodes the 201 quiz result", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const client = yield* clientFor(token("cody"))
      const scored = yield* client.learning.submitQuiz({
        path: { id: EnrollmentId.make(result.ids.enrollments.codyForklift!) },
        payload: { answers: forkliftAnswers(1) }
      })
      expect(scored).toMatchObject({ status: "completed", score: 0.2, resultsSummary: "1 of 5 correct (20%)" })
    }))
})
