import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { post } from "./support/assigners.js"
import { auditRows, shownEvents, storedAuditNaming, storedEventsNaming } from "./support/journal.js"
import { popQuizState, preparedRecipients, quizzersOnce, sendQuiz } from "./support/pop-quizzes.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * The pop quiz acts' trace (docs/domain.md, Events and the audit log):
 * sending is `pop_quiz.sent`; a recipient's start is `pop_quiz.started` and
 * their answer `pop_quiz.completed` with its event (the score, never the
 * answers); read back as an organization admin of quizco
 * (@tks/core/testing/pop-quizzes).
 */
const setup = quizzersOnce
const start = (quizId: string, token: string) => post(`/v1/me/pop-quizzes/${quizId}/start`, token, {})
const answer = (quizId: string, token: string, answers: unknown) => post(`/v1/me/pop-quizzes/${quizId}/answers`, token, { answers })

const sent = (key: string, people: ReadonlyArray<string>, dueDate = "2099-06-01T00:00:00Z") =>
  Effect.gen(function*() {
    const { contentId, freshToken, userId } = yield* setup
    const response = yield* sendQuiz(yield* freshToken("admin"), { contentId: contentId(key), audience: "users", userIds: people.map(userId), dueDate })
    expect(response.status, response.text).toBe(201)
    return response.json.id as string
  })

layer(TestServerLive, { excludeTestServices: true })("the pop quiz acts' events and audit rows", (it) => {
  describe("sending", () => {
    it.effect("is pop_quiz.sent with the quiz, how many it reached and the content, under one audit row naming the quiz and the content", () =>
      Effect.gen(function*() {
        const { contentId, token, userId } = yield* setup
        const id = yield* sent("manual", ["lena", "max"])
        const [event] = yield* shownEvents(token("owner"), "pop_quiz.sent", (found) => found.data.popQuiz.id === id, 1)
        expect(event).toMatchObject({
          actor: { type: "person", personId: userId("admin") },
          data: {
            popQuiz: { id, title: "Pop quiz: Travel Manual", dueDate: "2099-06-01T00:00:00.000Z", recipients: 2 },
            content: { id: contentId("manual"), title: "Travel Manual", kind: "document" }
          }
        })
        expect(event.data.person).toBeUndefined()
        const rows = yield* auditRows(token("owner"), id)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          action: "pop_quiz.sent",
          targets: [{ type: "pop_quiz", id }, { type: "content", id: contentId("manual") }],
          changes: { dueDate: { new: "2099-06-01T00:00:00.000Z" } }
        })
      }))

    it.effect("on a guide, the event names the content's kind as guide", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* sent("adminGuide", ["admin"])
        const [event] = yield* shownEvents(token("owner"), "pop_quiz.sent", (found) => found.data.popQuiz.id === id, 1)
        expect(event.data.content).toMatchObject({ title: "Admin Guide", kind: "guide" })
      }))

    it.effect("refused (someone reached cannot see the content) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, result, userId } = yield* setup
        const before = yield* popQuizState(result.organizationId)
        const guide = contentId("adminGuide")
        const audit = yield* storedAuditNaming(guide)
        const events = yield* storedEventsNaming(guide)
        expectError(
          yield* sendQuiz(yield* freshToken("admin"), { contentId: guide, audience: "users", userIds: [userId("lena")], dueDate: "2099-06-01T00:00:00Z" }),
          400,
          "RECIPIENT_CANNOT_SEE_CONTENT",
          "lena cannot see it"
        )
        expect(yield* popQuizState(result.organizationId)).toEqual(before)
        expect(yield* storedAuditNaming(guide)).toEqual(audit)
        expect(yield* storedEventsNaming(guide)).toEqual(events)
      }))
  })

  describe("a recipient's start and answer", () => {
    it.effect("a start is pop_quiz.started with the move it made (again: nothing changed); the answer is pop_quiz.completed with the score", () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const id = yield* sent("manual", ["lena"])
        yield* preparedRecipients(id)
        const lena = userId("lena")
        const byLena = Effect.map(auditRows(token("owner"), id), (rows) => rows.filter((row) => row.actor.personId === lena))

        const started = yield* start(id, token("lena"))
        expect(started.status, started.text).toBe(200)
        expect((yield* start(id, token("lena"))).status).toBe(200)
        const answered = yield* answer(id, token("lena"), [{ number: 1, answer: "nothing I know" }])
        expect(answered.status, answered.text).toBe(200)

        const [event] = yield* shownEvents(token("owner"), "pop_quiz.completed", (found) => found.data.popQuiz.id === id, 1)
        expect(event).toMatchObject({
          actor: { type: "person", personId: lena },
          data: {
            popQuiz: { id, title: "Pop quiz: Travel Manual" },
            person: { id: lena, name: expect.any(String), email: expect.any(String) },
            score: answered.json.score
          }
        })
        expect(JSON.stringify(event)).not.toContain("nothing I know")

        const rows = yield* byLena
        expect(rows.map((row) => [row.action, row.changes])).toEqual([
          ["pop_quiz.completed", { status: { old: "STARTED", new: "COMPLETED" }, score: { new: answered.json.score } }],
          ["pop_quiz.started", null],
          ["pop_quiz.started", { status: { old: "not_started", new: "STARTED" }, startedAt: { old: null, new: started.json.startedAt } }]
        ])
        expect(rows.every((row) => row.targets.length === 1 && row.targets[0].id === id)).toBe(true)
      }))

    it.effect("refused (answering before starting; answering or starting once answered) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* sent("manual", ["max"])
        yield* preparedRecipients(id)
        const audit = yield* storedAuditNaming(id)
        expectError(yield* answer(id, token("max"), [{ number: 1, answer: "14" }]), 400, "POP_QUIZ_NOT_STARTED", "not started")
        expect(yield* storedAuditNaming(id)).toEqual(audit)

        expect((yield* start(id, token("max"))).status).toBe(200)
        expect((yield* answer(id, token("max"), [{ number: 1, answer: "14" }])).status).toBe(200)
        const done = yield* storedAuditNaming(id)
        const events = yield* storedEventsNaming(id)
        expectError(yield* answer(id, token("max"), [{ number: 1, answer: "14" }]), 400, "POP_QUIZ_COMPLETED", "answered twice")
        expectError(yield* start(id, token("max")), 400, "POP_QUIZ_COMPLETED", "started once answered")
        expect(yield* storedAuditNaming(id)).toEqual(done)
        expect(yield* storedEventsNaming(id)).toEqual(events)
        expect(events).toEqual(["pop_quiz.completed", "pop_quiz.sent"])
      }))
  })
})
