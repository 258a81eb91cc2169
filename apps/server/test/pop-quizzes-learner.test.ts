import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readyAnswers, readyQuestions } from "@tks/core/testing/pop-quizzes"
import type { StoredQuestion } from "@tks/domain/quiz"
import { eventually } from "../../../packages/core/test/support/jobs.js"
import { execute, post, query } from "./support/assigners.js"
import { notificationsOf, preparedRecipients, quizzersOnce, sendQuiz } from "./support/pop-quizzes.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * The recipient's acts on a pop quiz (POST /v1/me/pop-quizzes/{id}/start and
 * /answers; learner acts the published contract leaves open) over quizco
 * (@tks/core/testing/pop-quizzes): not_started -> STARTED -> COMPLETED, the
 * refusals of each state, scoring, who may act (only the recipient: anyone
 * else 404), and the whole way from sending to a score in GET /v1/me/pop-quizzes.
 */
const setup = quizzersOnce
const start = (quizId: string, token: string | undefined) => post(`/v1/me/pop-quizzes/${quizId}/start`, token, {})
const answer = (quizId: string, token: string | undefined, answers: unknown) => post(`/v1/me/pop-quizzes/${quizId}/answers`, token, { answers })

/** A new quiz on the travel manual sent to `people`, with everyone's questions written. */
const freshQuiz = (...people: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { contentId, freshToken, userId } = yield* setup
    const sent = yield* sendQuiz(yield* freshToken("admin"), {
      contentId: contentId("manual"),
      audience: "users",
      userIds: people.map(userId),
      dueDate: "2099-06-01T00:00:00Z"
    })
    expect(sent.status).toBe(201)
    yield* preparedRecipients(sent.json.id)
    return sent.json.id as string
  })

/** A recipient's stored questions, with the right answers. */
const storedQuestions = (quizId: string, userId: string) =>
  query((sql) =>
    sql<{ questions: ReadonlyArray<StoredQuestion> }>`
      SELECT questions FROM pop_quiz_recipients WHERE pop_quiz_id = ${quizId} AND user_id = ${userId}`
  ).pipe(Effect.map((rows) => rows[0]!.questions))

const recipientRow = (quizId: string, userId: string) =>
  query((sql) =>
    sql<{ status: string; generation_status: string; score: number | null; completed_at: Date | null; answers: unknown }>`
      SELECT status, generation_status, score, completed_at, answers FROM pop_quiz_recipients WHERE pop_quiz_id = ${quizId} AND user_id = ${userId}`
  ).pipe(Effect.map((rows) => rows[0]!))

/** The caller's own row of the quiz in GET /v1/me/pop-quizzes. */
const ownRow = (quizId: string, token: string) =>
  Effect.map(raw("GET", "/v1/me/pop-quizzes", { token }), (response) => response.json.data.find((row: { id: string }) => row.id === quizId))

layer(TestServerLive, { excludeTestServices: true })("POST /v1/me/pop-quizzes/{id}/start and /answers", (it) => {
  it.effect("start moves not_started to STARTED and answers the caller's questions without their answers; starting again answers the same", () =>
    Effect.gen(function*() {
      const { popQuizId, token } = yield* setup
      const id = popQuizId("ready")
      const response = yield* start(id, token("lena"))
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        id,
        title: "Pop quiz: Travel Manual",
        prompt: "Answer a few questions about \"Travel Manual\".",
        dueDate: "2099-01-01T00:00:00.000Z",
        status: "STARTED",
        startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        questions: readyQuestions.map((q) => ({ number: q.number, kind: q.kind, question: q.question, choices: "choices" in q ? q.choices : [] }))
      })
      expect(response.text).not.toContain("correctAnswer")
      expect(response.text).not.toContain("explanation")
      expect(yield* ownRow(id, token("lena"))).toMatchObject({ status: "STARTED", completedAt: null, score: null })
      const again = yield* start(id, token("lena"))
      expect(again.json).toEqual(response.json)
      // Max's row is his own: still not started.
      expect(yield* ownRow(id, token("max"))).toMatchObject({ status: "not_started" })
    }))

  it.effect("answers are scored, kept and COMPLETED once; GET /v1/me/pop-quizzes and the admin's detail then show it", () =>
    Effect.gen(function*() {
      const { freshToken, popQuizId, token, userId } = yield* setup
      const id = popQuizId("ready")
      yield* start(id, token("max"))
      const response = yield* answer(id, token("max"), readyAnswers(4))
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        id,
        status: "COMPLETED",
        completedAt: expect.any(String),
        score: 0.8,
        passed: true,
        resultsSummary: "4 of 5 correct (80%)",
        questions: readyQuestions.map((question, index) => ({
          number: question.number,
          question: question.question,
          isCorrect: index < 4,
          score: index < 4 ? 1 : 0,
          answer: readyAnswers(4)[index]!.answer,
          correctAnswer: question.correctAnswer,
          explanation: question.explanation
        }))
      })
      const stored = yield* recipientRow(id, userId("max"))
      expect(stored).toMatchObject({ status: "COMPLETED", score: 0.8, completed_at: new Date(response.json.completedAt) })
      expect(stored.answers).toEqual(response.json.questions)
      expect(yield* ownRow(id, token("max"))).toEqual(expect.objectContaining({ status: "COMPLETED", score: 0.8, completedAt: response.json.completedAt }))
      const detail = yield* raw("GET", `/v1/pop-quizzes/${id}`, { token: yield* freshToken("admin") })
      expect(detail.json.recipients.find((row: { user: { id: string } }) => row.user.id === userId("max"))).toMatchObject({
        status: "COMPLETED",
        score: 0.8,
        completedAt: response.json.completedAt
      })
      expect(detail.json.summary.completedCount).toBeGreaterThanOrEqual(1)

      // Answered once: a second answer and a new start are refused and change nothing.
      expectError(yield* answer(id, token("max"), readyAnswers(5)), 400, "POP_QUIZ_COMPLETED", "answer again")
      expectError(yield* start(id, token("max")), 400, "POP_QUIZ_COMPLETED", "start again")
      expect(yield* recipientRow(id, userId("max"))).toEqual(stored)
    }))

  it.effect("answering before starting is 400 POP_QUIZ_NOT_STARTED; bad answers are 400 and leave the quiz STARTED", () =>
    Effect.gen(function*() {
      const { token, userId } = yield* setup
      const id = yield* freshQuiz("lena")
      expectError(yield* answer(id, token("lena"), [{ number: 1, answer: "x" }]), 400, "POP_QUIZ_NOT_STARTED", "not started")
      expect((yield* recipientRow(id, userId("lena"))).status).toBe("not_started")
      yield* start(id, token("lena"))
      expectError(yield* answer(id, token("lena"), [{ number: 99, answer: "x" }]), 400, "INVALID_ANSWERS", "no question 99")
      expectError(yield* answer(id, token("lena"), [{ number: 1, answer: "a" }, { number: 1, answer: "b" }]), 400, "INVALID_ANSWERS", "twice")
      for (const bad of [undefined, "all of them", [{ number: 0, answer: "x" }], [{ number: 1 }], [{ number: 1, answer: "a\u0000" }]]) {
        expectError(yield* answer(id, token("lena"), bad), 400, "VALIDATION_ERROR", JSON.stringify(bad))
      }
      expect(yield* recipientRow(id, userId("lena"))).toMatchObject({ status: "STARTED", score: null, answers: null })
    }))

  it.effect("unanswered questions score 0, answers compare ignoring case and spaces, and a choice not shown is wrong", () =>
    Effect.gen(function*() {
      const { token, userId } = yield* setup
      const id = yield* freshQuiz("nina")
      const questions = yield* storedQuestions(id, userId("nina"))
      expect(questions.length).toBeGreaterThanOrEqual(3)
      yield* start(id, token("nina"))
      const [first, second] = questions
      const given = [
        { number: first!.number, answer: `  ${first!.correctAnswer.toUpperCase()}  ` },
        // A multiple-choice answer must be one of its choices; a cloze answer is typed.
        { number: second!.number, answer: second!.kind === "multiple_choice" ? "none of these" : "not the word" }
      ]
      const response = yield* answer(id, token("nina"), given)
      expect(response.status).toBe(200)
      expect(response.json.score).toBeCloseTo(1 / questions.length)
      expect(response.json.passed).toBe(false)
      expect(response.json.questions.map((row: { isCorrect: boolean }) => row.isCorrect)).toEqual(questions.map((_, index) => index === 0))
      expect(response.json.questions.slice(2).map((row: { answer: string | null }) => row.answer)).toEqual(questions.slice(2).map(() => null))
    }))

  it.effect("questions not written yet: 400 POP_QUIZ_NOT_READY; when writing them failed, starting asks for them again, and then it starts", () =>
    Effect.gen(function*() {
      const { token, userId } = yield* setup
      const id = yield* freshQuiz("lena", "max")
      const setGeneration = (key: string, status: string) =>
        execute((sql) =>
          sql`UPDATE pop_quiz_recipients SET generation_status = ${status}, questions = NULL, failure_reason = ${status === "FAILED" ? "the model is down" : null}
              WHERE pop_quiz_id = ${id} AND user_id = ${userId(key)}`
        )
      yield* setGeneration("lena", "PENDING")
      const pending = yield* start(id, token("lena"))
      expectError(pending, 400, "POP_QUIZ_NOT_READY", "pending")
      expect(pending.json.message).toContain("still being written")
      expect((yield* recipientRow(id, userId("lena"))).status).toBe("not_started")

      yield* setGeneration("max", "FAILED")
      const failed = yield* start(id, token("max"))
      expectError(failed, 400, "POP_QUIZ_NOT_READY", "failed")
      expect(failed.json.message).toContain("written again")
      yield* eventually(Effect.map(recipientRow(id, userId("max")), (row) => row.generation_status === "READY"))
      const started = yield* start(id, token("max"))
      expect(started.status).toBe(200)
      expect(started.json.questions.length).toBeGreaterThan(0)
    }))

  it.effect("only the recipient: anyone else (an admin included), another organization, an unknown id get 404; no or a bad token 401", () =>
    Effect.gen(function*() {
      const { badTokens, elsewhere, freshToken, popQuizId, token, userId } = yield* setup
      const id = popQuizId("ready")
      for (const key of ["viewer", "admin", "owner", "teamAdmin", "external"]) {
        expectError(yield* start(id, token(key)), 404, "NOT_FOUND", `start ${key}`)
        expectError(yield* answer(id, token(key), readyAnswers(5)), 404, "NOT_FOUND", `answer ${key}`)
      }
      const otto = yield* freshToken("otto")
      expectError(yield* start(id, otto), 404, "NOT_FOUND", "other organization")
      expectError(yield* start(elsewhere.ids.popQuizzes.theirQuiz!, token("lena")), 404, "NOT_FOUND", "their quiz")
      expectError(yield* start("pq_nope", token("lena")), 404, "NOT_FOUND", "unknown")
      for (const [kind, bad] of Object.entries(badTokens)) {
        expectError(yield* start(id, bad), 401, "UNAUTHORIZED", `start ${kind}`)
        expectError(yield* answer(id, bad, []), 401, "UNAUTHORIZED", `answer ${kind}`)
      }
      // Nobody else's call moved Nina's row.
      expect((yield* recipientRow(id, userId("nina"))).status).toBe("not_started")
    }))

  it.effect("two answers at once: one is scored, the other is 400 POP_QUIZ_COMPLETED", () =>
    Effect.gen(function*() {
      const { token, userId } = yield* setup
      const id = yield* freshQuiz("max")
      const questions = yield* storedQuestions(id, userId("max"))
      yield* start(id, token("max"))
      const right = questions.map((question) => ({ number: question.number, answer: question.correctAnswer }))
      const responses = yield* Effect.all([answer(id, token("max"), right), answer(id, token("max"), [])], { concurrency: 2 })
      expect(responses.map((response) => response.status).sort()).toEqual([200, 400])
      expect(responses.find((response) => response.status === 400)!.json.code).toBe("POP_QUIZ_COMPLETED")
      const scored = responses.find((response) => response.status === 200)!.json.score
      expect((yield* recipientRow(id, userId("max"))).score).toBe(scored)
    }))

  it.effect("the whole way: sent, told when ready, started, answered right, and COMPLETED with score 1 in the own list", () =>
    Effect.gen(function*() {
      const { token, userId } = yield* setup
      const id = yield* freshQuiz("nina")
      const told = yield* notificationsOf(userId("nina"))
      expect(told.filter((row) => row.notice.popQuizId === id).map((row) => `${row.channel} ${row.kind}`)).toEqual(["email PopQuizReady"])
      expect(yield* ownRow(id, token("nina"))).toMatchObject({ status: "not_started", score: null })
      const started = yield* start(id, token("nina"))
      const questions = yield* storedQuestions(id, userId("nina"))
      expect(started.json.questions).toEqual(questions.map(({ number, kind, question, choices }) => ({ number, kind, question, choices })))
      const done = yield* answer(id, token("nina"), questions.map((question) => ({ number: question.number, answer: question.correctAnswer })))
      expect(done.json).toMatchObject({ status: "COMPLETED", score: 1, passed: true })
      expect(yield* ownRow(id, token("nina"))).toMatchObject({ status: "COMPLETED", score: 1, completedAt: done.json.completedAt })
    }))
})
