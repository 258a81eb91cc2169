import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { LessonId } from "@tks/domain/ids"
import { enrollmentQuizQuestions } from "@tks/domain/quiz"
import { badTokens } from "./support/callers.js"
import { enrollmentRow, enrollmentsOf, learnersOnce, quizJobsOf, settledQuiz, startLesson } from "./support/learners.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** POST /v1/me/lessons/{id}/start: the learner act that enrolls and starts (a contract addition). */
const setup = learnersOnce

layer(TestServerLive, { excludeTestServices: true })("POST /v1/me/lessons/{id}/start", (it) => {
  it.effect("enrolled already: 200 with that enrollment (the enrollment's shape, due date of the lesson obligation), started now and the first start kept", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const lessonId = result.ids.lessons.forklift!
      const enrollmentId = result.ids.enrollments.leaForklift!
      expect((yield* enrollmentRow(enrollmentId))?.started_at).toBeNull()
      const first = yield* startLesson(lessonId, token("lea"))
      expect(first.status).toBe(200)
      expect(first.json).toEqual({
        id: enrollmentId,
        itemId: lessonId,
        title: "Forklift safety",
        status: "in_progress",
        completedAt: null,
        dueDate: "2030-01-01T00:00:00.000Z",
        url: expect.stringMatching(new RegExp(`/v1/lessons/${lessonId}$`)),
        enrolledAt: "2026-02-01T09:00:00.000Z",
        startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      })
      const again = yield* startLesson(lessonId, token("lea"))
      expect(again.status).toBe(200)
      expect(again.json.startedAt).toBe(first.json.startedAt)
      expect(again.json.id).toBe(enrollmentId)
    }))

  it.effect("not enrolled: 201 with a new enrollment started now; its quiz is prepared in the background and becomes READY", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const created = yield* startLesson(result.ids.lessons.leaOwn!, token("lea"))
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({ itemId: result.ids.lessons.leaOwn, title: "Lea's own lesson", status: "in_progress", dueDate: null })
      expect(created.json.startedAt).toBe(created.json.enrolledAt)
      const quiz = yield* settledQuiz(created.json.id, token("lea"))
      expect(quiz.json).toMatchObject({ status: "READY", difficulty: "MODERATE", failureReason: null, attempts: 0 })
      expect(quiz.json.questions).toHaveLength(enrollmentQuizQuestions)
      // Starting it again is the same enrollment.
      const again = yield* startLesson(result.ids.lessons.leaOwn!, token("lea"))
      expect([again.status, again.json.id]).toEqual([200, created.json.id])
    }))

  it.effect("every member who can read an open lesson may start it; the typed client decodes both statuses", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"] as const) {
        const client = yield* clientFor(tokens[kind])
        const created = yield* client.learning.startLesson({ path: { id: LessonId.make(result.ids.lessons.forklift!) } })
        expect(created, kind).toMatchObject({ itemId: result.ids.lessons.forklift, status: "in_progress" })
        const again = yield* client.learning.startLesson({ path: { id: LessonId.make(result.ids.lessons.forklift!) } })
        expect(again.id, kind).toBe(created.id)
      }
    }))

  it.effect("a lesson the caller cannot read, unknown, or of another organization is 404: nothing is enrolled", () =>
    Effect.gen(function*() {
      const { other, result, token, tokens, userIds } = yield* setup
      // Admins only; everyone excludes external accounts.
      expectError(yield* startLesson(result.ids.lessons.adminForklift!, token("max")), 404, "NOT_FOUND")
      expectError(yield* startLesson(result.ids.lessons.forklift!, tokens.external), 404, "NOT_FOUND")
      expectError(yield* startLesson("les_doesnotexist", token("max")), 404, "NOT_FOUND")
      expectError(yield* startLesson(result.ids.lessons.forklift!, tokens.otherOrgAdmin), 404, "NOT_FOUND")
      const otherLesson = Object.values(other.ids.lessons)[0]
      if (otherLesson !== undefined) expectError(yield* startLesson(otherLesson, tokens.owner), 404, "NOT_FOUND")
      expect(yield* enrollmentsOf(result.ids.people.max!, result.ids.lessons.adminForklift!)).toEqual([])
      expect(yield* enrollmentsOf(userIds.external, result.ids.lessons.forklift!)).toEqual([])
      // An admin reads the admins-only lesson and may start it.
      expect((yield* startLesson(result.ids.lessons.adminForklift!, tokens.admin)).status).toBe(201)
    }))

  it.effect("a closed lesson, or one made for another person, is 400 LESSON_CLOSED; the person it was made for may start theirs", () =>
    Effect.gen(function*() {
      const { result, token, tokens } = yield* setup
      expectError(yield* startLesson(result.ids.lessons.closed!, token("max")), 400, "LESSON_CLOSED")
      expectError(yield* startLesson(result.ids.lessons.leaOwn!, token("max")), 400, "LESSON_CLOSED")
      expectError(yield* startLesson(result.ids.lessons.leaOwn!, tokens.owner), 400, "LESSON_CLOSED")
      // Lea completed the closed lesson: no enrollment in progress, so starting again is refused too.
      expectError(yield* startLesson(result.ids.lessons.closed!, token("lea")), 400, "LESSON_CLOSED")
    }))

  it.effect("a quiz that failed for good is prepared again when the learner starts the lesson again", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const enrollmentId = result.ids.enrollments.leaEmpty!
      // The empty lesson has nothing to ask about: its quiz fails for good.
      expect((yield* settledQuiz(enrollmentId, token("lea"))).json).toMatchObject({
        status: "FAILED",
        failureReason: "The lesson has no content to ask about",
        questions: []
      })
      expect((yield* quizJobsOf(enrollmentId)).map((job) => job.status)).toEqual(["FAILED"])
      expect((yield* startLesson(result.ids.lessons.empty!, token("lea"))).status).toBe(200)
      expect((yield* quizJobsOf(enrollmentId))).toHaveLength(2)
      expect((yield* settledQuiz(enrollmentId, token("lea"))).json.status).toBe("FAILED")
      // A quiz that did not fail is not prepared again.
      yield* startLesson(result.ids.lessons.forklift!, token("lea"))
      expect(yield* quizJobsOf(result.ids.enrollments.leaForklift!)).toEqual([])
    }))

  it.effect("starting the same lesson many times at once gives one enrollment: one 201, the rest 200 with the same id", () =>
    Effect.gen(function*() {
      const { result, tokens, userIds } = yield* setup
      const lessonId = result.ids.lessons.adminForklift!
      const responses = yield* Effect.all(Array.from({ length: 8 }, () => startLesson(lessonId, tokens.billingAdmin)), {
        concurrency: "unbounded"
      })
      expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201])
      expect(new Set(responses.map((response) => response.json.id)).size).toBe(1)
      expect(yield* enrollmentsOf(userIds.billingAdmin, lessonId)).toHaveLength(1)
      expect(yield* quizJobsOf(responses[0]!.json.id)).toHaveLength(1)
    }))

  it.effect("no token, or a bad, expired or revoked one, is 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* startLesson(result.ids.lessons.forklift!, tokens[kind]), 401, "UNAUTHORIZED", kind)
      }
      expectError(yield* raw("POST", `/v1/me/lessons/${result.ids.lessons.forklift}/start`), 401, "UNAUTHORIZED")
    }))
})
