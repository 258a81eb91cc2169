import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { forkliftAnswers } from "@tks/core/testing/learning"
import { auditRows, shownEvents, storedAuditNaming, storedEventsNaming } from "./support/journal.js"
import { enrollmentRow, learnersOnce, startLesson, submitAnswers } from "./support/learners.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * The learner acts' trace (docs/domain.md, Events and the audit log):
 * starting a lesson and submitting a quiz each leave one audit row, with the
 * events of the enrollments and obligations they create or complete; read
 * back as an organization admin. Each test has its own learner of
 * @tks/core/testing/learning: Lea passes, Max fails, Cody fails yet meets a
 * knowledge obligation, Sid and the owner start lessons.
 */
const setup = learnersOnce

const person = (userId: string) => ({ id: userId, name: expect.any(String), email: expect.any(String) })

layer(TestServerLive, { excludeTestServices: true })("the learner acts' events and audit rows", (it) => {
  describe("submitting a quiz", () => {
    it.effect("a pass records enrollment.completed and an obligation.completed for each lesson, topic and item obligation it completes, under one audit row", () =>
      Effect.gen(function*() {
        const { result, token, tokens } = yield* setup
        const enrollment = result.ids.enrollments.leaForklift!
        const lesson = result.ids.lessons.forklift!
        const lea = result.ids.people.lea!
        const response = yield* submitAnswers(enrollment, token("lea"), { answers: forkliftAnswers(5) })
        expect(response.status, response.text).toBe(201)

        const [completed] = yield* shownEvents(tokens.owner, "enrollment.completed", (event) => event.data.enrollment.id === enrollment, 1)
        expect(completed).toMatchObject({
          actor: { type: "person", personId: lea },
          data: { enrollment: { id: enrollment, score: 1 }, lesson: { id: lesson, title: "Forklift safety" }, person: person(lea) }
        })
        const { leaInspection, leaLesson, leaParking, leaStacking } = result.ids.obligations
        const mine = (event: any) => event.data.person.id === lea
        const obligations = yield* shownEvents(tokens.owner, "obligation.completed", mine, 3)
        expect(obligations.map((event) => event.data.obligation.id).sort()).toEqual([leaInspection, leaLesson, leaStacking].sort())
        expect(obligations.map((event) => event.data.obligation.id)).not.toContain(leaParking)
        expect(obligations.find((event) => event.data.obligation.id === leaLesson).data.obligation).toEqual({
          id: leaLesson,
          itemType: "lesson",
          itemId: lesson,
          required: true,
          dueDate: "2030-01-01T00:00:00.000Z"
        })

        const rows = yield* auditRows(tokens.owner, enrollment)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          action: "enrollment.completed",
          actor: { type: "person", personId: lea },
          targets: [{ type: "quiz_attempt", id: response.json.id }, { type: "enrollment", id: enrollment }, { type: "lesson", id: lesson }],
          changes: { score: { new: 1 }, passed: { new: true } }
        })
      }))

    it.effect("a failed attempt that completes nothing is quiz_attempt.submitted, with no event", () =>
      Effect.gen(function*() {
        const { result, token, tokens } = yield* setup
        const enrollment = result.ids.enrollments.maxForklift!
        const response = yield* submitAnswers(enrollment, token("max"), { answers: forkliftAnswers(1) })
        expect(response.status, response.text).toBe(201)
        const rows = yield* auditRows(tokens.owner, enrollment)
        expect(rows.map((row) => [row.action, row.changes])).toEqual([["quiz_attempt.submitted", { score: { new: 0.2 }, passed: { new: false } }]])
        expect(yield* storedEventsNaming(enrollment)).toEqual([])
        expect(yield* storedEventsNaming(result.ids.obligations.maxLesson!)).toEqual([])
      }))

    it.effect("a failed attempt that meets a knowledge obligation (PARTIAL, where only a CONSULTED duty reaches) is obligation.completed", () =>
      Effect.gen(function*() {
        const { result, token, tokens } = yield* setup
        const enrollment = result.ids.enrollments.codyForklift!
        const response = yield* submitAnswers(enrollment, token("cody"), { answers: forkliftAnswers(2) })
        expect(response.status, response.text).toBe(201)
        const { codyInspection, codyLoading } = result.ids.obligations
        const [event] = yield* shownEvents(tokens.owner, "obligation.completed", (found) => found.data.obligation.id === codyLoading, 1)
        expect(event.data).toEqual({
          obligation: { id: codyLoading, itemType: "topic", itemId: result.ids.topics.loading, required: true, dueDate: null },
          person: person(result.ids.people.cody!)
        })
        expect(yield* storedEventsNaming(codyInspection!)).toEqual([])
        const [row] = yield* auditRows(tokens.owner, enrollment)
        expect(row).toMatchObject({ action: "obligation.completed", changes: { passed: { new: false } } })
      }))

    it.effect("refused (answers to questions the quiz does not have; a completed enrollment) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const cody = result.ids.enrollments.codyForklift!
        const lea = result.ids.enrollments.leaForklift!
        const before = [yield* storedAuditNaming(cody), yield* storedEventsNaming(cody), yield* storedAuditNaming(lea), yield* storedEventsNaming(lea)]
        expectError(yield* submitAnswers(cody, token("cody"), { answers: [{ number: 9, answer: "12" }] }), 400, "INVALID_ANSWERS", "no question 9")
        expectError(yield* submitAnswers(lea, token("lea"), { answers: forkliftAnswers(5) }), 400, "ENROLLMENT_COMPLETED", "completed")
        expect([yield* storedAuditNaming(cody), yield* storedEventsNaming(cody), yield* storedAuditNaming(lea), yield* storedEventsNaming(lea)])
          .toEqual(before)
      }))
  })

  describe("starting a lesson", () => {
    it.effect("with no enrollment is enrollment.created with its event; starting it again is lesson.started, which changes nothing", () =>
      Effect.gen(function*() {
        const { result, tokens, userIds } = yield* setup
        const lesson = result.ids.lessons.forklift!
        const first = yield* startLesson(lesson, tokens.owner)
        expect(first.status, first.text).toBe(201)
        const enrollment = first.json.id
        const [created] = yield* shownEvents(tokens.owner, "enrollment.created", (event) => event.data.enrollment.id === enrollment, 1)
        expect(created.data).toEqual({ enrollment: { id: enrollment }, lesson: { id: lesson, title: "Forklift safety" }, person: person(userIds.owner) })

        expect((yield* startLesson(lesson, tokens.owner)).status).toBe(200)
        const rows = yield* auditRows(tokens.owner, enrollment)
        expect(rows.map((row) => [row.action, row.changes])).toEqual([["lesson.started", null], ["enrollment.created", null]])
        expect(rows[1].targets).toEqual([{ type: "enrollment", id: enrollment }, { type: "lesson", id: lesson }])
        expect(yield* storedEventsNaming(enrollment)).toEqual(["enrollment.created"])
      }))

    it.effect("an enrollment never started is lesson.started with the start time", () =>
      Effect.gen(function*() {
        const { result, token, tokens } = yield* setup
        const enrollment = result.ids.enrollments.sidForklift!
        expect((yield* enrollmentRow(enrollment))?.started_at).toBeNull()
        const response = yield* startLesson(result.ids.lessons.forklift!, token("sid"))
        expect(response.status, response.text).toBe(200)
        const [row] = yield* auditRows(tokens.owner, enrollment)
        expect(row).toMatchObject({ action: "lesson.started", changes: { startedAt: { old: null, new: response.json.startedAt } } })
        expect(yield* storedEventsNaming(enrollment)).toEqual([])
      }))

    it.effect("refused (a closed lesson) leaves no audit row", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const closed = result.ids.lessons.closed!
        expectError(yield* startLesson(closed, tokens.owner), 400, "LESSON_CLOSED", "closed")
        expect(yield* storedAuditNaming(closed)).toEqual([])
        expect(yield* storedEventsNaming(closed)).toEqual([])
      }))
  })
})
