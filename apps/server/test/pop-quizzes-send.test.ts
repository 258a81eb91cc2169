import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { QuestionGenerationFailed, QuestionGenerator } from "@tks/adapters/questions/port"
import { expectError } from "./support/responses.js"
import { TestAdaptersLive } from "./support/adapters.js"
import { elsewhere, quizco } from "@tks/core/testing/pop-quizzes"
import { query, setUpCallers } from "./support/assigners.js"
import { once } from "./support/once.js"
import { clearOfMinuteEnd } from "./support/contributors.js"
import {
  notificationsOf,
  popQuizState,
  preparedRecipients,
  quizzersOnce,
  recipientsOf,
  sendQuiz
} from "./support/pop-quizzes.js"
import { raw, type RawResponse, TestServerLive, testServerWith } from "./support/server.js"

/**
 * POST /v1/pop-quizzes (docs/domain.md, Pop quizzes,
 * Visibility, Notifications) over quizco (@tks/core/testing/pop-quizzes):
 * what is created, who is reached and told, every refusal (each shown to
 * create nothing), the caller matrix, the generation check and the rate limit.
 */
const setup = quizzersOnce
const base = "http://localhost:3000/v1"
const future = "2099-03-01T12:00:00+02:00"

/** The call is refused with `status`/`code` and the organization has no more pop quizzes, recipients or jobs than before. */
const expectRefused = <R>(call: Effect.Effect<RawResponse, never, R>, status: number, code: string, label: string, of = setup) =>
  Effect.gen(function*() {
    const { orgId } = yield* of
    const before = yield* popQuizState(orgId)
    const response = yield* call
    expectError(response, status, code, label)
    expect(yield* popQuizState(orgId), label).toEqual(before)
    return response
  })

layer(TestServerLive, { excludeTestServices: true })("POST /v1/pop-quizzes", (it) => {
  describe("sending", () => {
    it.effect("201 {id, title, dueDate, url}; the quiz, a PENDING recipient row per person and a pop-quiz.prepare job each, in one go", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, orgId, userId } = yield* setup
        const before = yield* popQuizState(orgId)
        const response = yield* sendQuiz(yield* freshToken("admin"), {
          contentId: contentId("manual"),
          audience: "users",
          userIds: [userId("lena"), userId("max"), userId("lena")],
          dueDate: future
        })
        expect(response.status).toBe(201)
        const id: string = response.json.id
        expect(id).toMatch(/^pq_/)
        expect(response.json).toEqual({
          id,
          title: "Pop quiz: Travel Manual",
          dueDate: "2099-03-01T10:00:00.000Z",
          url: `${base}/pop-quizzes/${id}`
        })
        const [quiz] = yield* query((sql) =>
          sql<Record<string, unknown>>`SELECT content_id, title, prompt, difficulty, due_date, sent_by, announcement_id FROM pop_quizzes WHERE id = ${id}`
        )
        expect(quiz).toEqual({
          content_id: contentId("manual"),
          title: "Pop quiz: Travel Manual",
          prompt: "Answer a few questions about \"Travel Manual\".",
          difficulty: "MODERATE",
          due_date: new Date("2099-03-01T10:00:00.000Z"),
          sent_by: userId("admin"),
          announcement_id: null
        })
        const recipients = yield* recipientsOf(id)
        expect(recipients.map((row) => [row.user_id, row.status]).sort()).toEqual(
          [[userId("lena"), "not_started"], [userId("max"), "not_started"]].sort()
        )
        const jobs = yield* query((sql) =>
          sql<{ subject_id: string }>`SELECT subject_id FROM jobs WHERE kind = 'pop-quiz.prepare' AND subject_id = ANY(${recipients.map((row) => row.id)})`
        )
        expect(jobs.map((job) => job.subject_id).sort()).toEqual(recipients.map((row) => row.id).sort())
        expect(yield* popQuizState(orgId)).toEqual({ quizzes: before.quizzes + 1, recipients: before.recipients + 2, jobs: before.jobs + 2 })
      }))

    it.effect("after the call each person's own questions are written and they are told once: email to each, a text to those with a phone", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, userId } = yield* setup
        const response = yield* sendQuiz(yield* freshToken("owner"), {
          contentId: contentId("video"),
          audience: "users",
          userIds: [userId("lena"), userId("max")],
          dueDate: "2099-05-01T00:00:00Z",
          difficulty: "SIMPLE"
        })
        expect(response.status).toBe(201)
        const id: string = response.json.id
        const recipients = yield* preparedRecipients(id)
        expect(recipients.map((row) => row.generation_status)).toEqual(["READY", "READY"])
        for (const row of recipients) expect(row.questions!.length).toBeGreaterThan(0)
        const told = (key: string) =>
          Effect.map(notificationsOf(userId(key)), (rows) => rows.filter((row) => row.notice.popQuizId === id).map((row) => `${row.channel} ${row.kind}`))
        expect(yield* told("lena")).toEqual(["email PopQuizReady", "sms PopQuizReady"])
        expect(yield* told("max")).toEqual(["email PopQuizReady"])
        const [notice] = (yield* notificationsOf(userId("max"))).filter((row) => row.notice.popQuizId === id)
        expect(notice!.notice).toMatchObject({ title: "Pop quiz: Expenses Video", dueDate: "2099-05-01T00:00:00.000Z" })
        // The detail follows who has done it.
        const detail = yield* raw("GET", `/v1/pop-quizzes/${id}`, { token: yield* freshToken("owner") })
        expect(detail.json.summary).toEqual({ recipientCount: 2, completedCount: 0 })
      }))

    it.effect("everyone: every active member except external accounts; people who left are quietly left out", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, result, userId } = yield* setup
        const response = yield* sendQuiz(yield* freshToken("billingAdmin"), { contentId: contentId("manual"), audience: "everyone", dueDate: future })
        expect(response.status).toBe(201)
        const reached = (yield* recipientsOf(response.json.id)).map((row) => row.user_id).sort()
        const expected = Object.entries(result.ids.people)
          .filter(([key]) => key !== "gone" && key !== "external")
          .map(([, id]) => id)
          .sort()
        expect(reached).toEqual(expected)
        expect(reached).not.toContain(userId("gone"))
      }))

    it.effect("teams: the people on them, once each; a team member who left is quietly left out", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, teamId, userId } = yield* setup
        const response = yield* sendQuiz(yield* freshToken("admin"), {
          contentId: contentId("manual"),
          audience: "teams",
          teamIds: [teamId("floor"), teamId("office"), teamId("floor")],
          dueDate: future
        })
        expect(response.status).toBe(201)
        expect((yield* recipientsOf(response.json.id)).map((row) => row.user_id).sort()).toEqual(
          ["teamAdmin", "lena", "max", "nina", "viewer"].map(userId).sort()
        )
      }))

    it.effect("a difficulty the plan includes is kept (pro: CHALLENGING); a team's content goes to the team", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, teamId } = yield* setup
        const response = yield* sendQuiz(yield* freshToken("admin"), {
          contentId: contentId("floorNotes"),
          audience: "teams",
          teamIds: [teamId("floor")],
          dueDate: future,
          difficulty: "CHALLENGING"
        })
        expect(response.status).toBe(201)
        const [quiz] = yield* query((sql) => sql<{ difficulty: string }>`SELECT difficulty FROM pop_quizzes WHERE id = ${response.json.id}`)
        expect(quiz!.difficulty).toBe("CHALLENGING")
      }))
  })

  describe("400: nothing is created", () => {
    it.effect("field rules: contentId, audience with teamIds/userIds as for lesson assignment, dueDate with a UTC offset, difficulty", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, teamId, userId } = yield* setup
        const token = yield* freshToken("admin")
        const ok = { contentId: contentId("manual"), audience: "users", userIds: [userId("lena")], dueDate: future }
        const { contentId: _, ...noContent } = ok
        const { dueDate: __, ...noDue } = ok
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [noContent, "contentId"],
          [noDue, "dueDate"],
          [{ ...ok, audience: undefined }, "audience"],
          [{ ...ok, audience: "all" }, "audience"],
          [{ ...ok, audience: "teams", userIds: undefined }, "teamIds"],
          [{ ...ok, audience: "users", userIds: undefined }, "userIds"],
          [{ ...ok, audience: "everyone", userIds: undefined, teamIds: [teamId("floor")] }, "teamIds"],
          [{ ...ok, audience: "everyone" }, "userIds"],
          [{ ...ok, teamIds: [teamId("floor")] }, "teamIds"],
          [{ ...ok, userIds: [] }, "userIds"],
          [{ ...ok, audience: "teams", userIds: undefined, teamIds: Array.from({ length: 51 }, (_, i) => `team_${i}`) }, "teamIds"],
          [{ ...ok, userIds: Array.from({ length: 501 }, (_, i) => `usr_${i}`) }, "userIds"],
          [{ ...ok, dueDate: "2099-03-01T12:00:00" }, "dueDate"],
          [{ ...ok, dueDate: "2099-03-01" }, "dueDate"],
          [{ ...ok, dueDate: "next week" }, "dueDate"],
          [{ ...ok, difficulty: "EXTREME" }, "difficulty"],
          [{ ...ok, contentId: "a\u0000b" }, "contentId"]
        ]
        for (const [body, field] of cases) {
          const label = JSON.stringify(body).slice(0, 100)
          const response = yield* expectRefused(sendQuiz(token, body), 400, "VALIDATION_ERROR", label)
          expect(response.json.message, label).toContain(field)
        }
      }))

    it.effect("contentId: unknown, not published, or another organization's content is 400 UNKNOWN_CONTENT", () =>
      Effect.gen(function*() {
        const { contentId, elsewhere, freshToken, userId } = yield* setup
        const token = yield* freshToken("admin")
        const body = (id: string) => ({ contentId: id, audience: "users", userIds: [userId("lena")], dueDate: future })
        for (const id of ["cnt_nope", contentId("draft"), elsewhere.ids.content.theirs!]) {
          yield* expectRefused(sendQuiz(token, body(id)), 400, "UNKNOWN_CONTENT", id)
        }
      }))

    it.effect("a due date that is not in the future is 400 DUE_DATE_NOT_IN_FUTURE", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, userId } = yield* setup
        const token = yield* freshToken("admin")
        for (const dueDate of ["2020-01-01T00:00:00Z", new Date(Date.now() - 60_000).toISOString()]) {
          yield* expectRefused(
            sendQuiz(token, { contentId: contentId("manual"), audience: "users", userIds: [userId("lena")], dueDate }),
            400,
            "DUE_DATE_NOT_IN_FUTURE",
            dueDate
          )
        }
      }))

    it.effect("a difficulty above the plan is 400 DIFFICULTY_NOT_IN_PLAN (pro has no ADVANCED); on enterprise it is sent", () =>
      Effect.gen(function*() {
        const { contentId, elsewhere, freshToken, userId } = yield* setup
        const response = yield* expectRefused(
          sendQuiz(yield* freshToken("admin"), {
            contentId: contentId("manual"),
            audience: "users",
            userIds: [userId("lena")],
            dueDate: future,
            difficulty: "ADVANCED"
          }),
          400,
          "DIFFICULTY_NOT_IN_PLAN",
          "ADVANCED on pro"
        )
        expect(response.json.message).toContain("pro")
        const enterprise = yield* sendQuiz(yield* freshToken("otto"), {
          contentId: elsewhere.ids.content.theirs!,
          audience: "users",
          userIds: [elsewhere.ids.people.stranger!],
          dueDate: future,
          difficulty: "ADVANCED"
        })
        expect(enterprise.status).toBe(201)
      }))

    it.effect("teams: a team not of the organization is 400 Unknown teamId; a team with nobody left is 400 NOBODY_REACHED", () =>
      Effect.gen(function*() {
        const { contentId, elsewhere, freshToken, teamId } = yield* setup
        const token = yield* freshToken("admin")
        const body = (teamIds: ReadonlyArray<string>) => ({ contentId: contentId("manual"), audience: "teams", teamIds, dueDate: future })
        for (const teamIds of [["team_nope"], [teamId("floor"), elsewhere.ids.teams.theirTeam!]]) {
          const response = yield* expectRefused(sendQuiz(token, body(teamIds)), 400, "UNKNOWN_TEAM", teamIds.join())
          expect(response.json.message).toBe("Unknown teamId")
        }
        yield* expectRefused(sendQuiz(token, body([teamId("nobodyLeft")])), 400, "NOBODY_REACHED", "only people who left")
      }))

    it.effect("users: a person not of the organization is 400 UNKNOWN_USER; naming someone who left is 400 PERSON_DEACTIVATED", () =>
      Effect.gen(function*() {
        const { contentId, elsewhere, freshToken, userId } = yield* setup
        const token = yield* freshToken("admin")
        const body = (userIds: ReadonlyArray<string>) => ({ contentId: contentId("manual"), audience: "users", userIds, dueDate: future })
        for (const userIds of [["usr_nope"], [userId("lena"), elsewhere.ids.people.stranger!]]) {
          const response = yield* expectRefused(sendQuiz(token, body(userIds)), 400, "UNKNOWN_USER", userIds.join())
          expect(response.json.message).toContain(userIds.at(-1))
        }
        const response = yield* expectRefused(sendQuiz(token, body([userId("lena"), userId("gone")])), 400, "PERSON_DEACTIVATED", "gone")
        expect(response.json.message).toContain(userId("gone"))
      }))

    it.effect("everyone reached must be able to see the content: else 400 RECIPIENT_CANNOT_SEE_CONTENT naming who, and nothing is sent", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, teamId, userId } = yield* setup
        const token = yield* freshToken("admin")
        // [content, audience, who cannot see it, who can]
        const cases: ReadonlyArray<readonly [string, object, ReadonlyArray<string>, ReadonlyArray<string>]> = [
          ["floorNotes", { audience: "users", userIds: [userId("lena"), userId("nina")] }, ["nina"], ["lena"]],
          ["floorNotes", { audience: "everyone" }, ["nina", "viewer"], ["lena", "teamAdmin", "owner"]],
          ["adminGuide", { audience: "users", userIds: [userId("admin"), userId("lena")] }, ["lena"], ["admin"]],
          ["manual", { audience: "teams", teamIds: [teamId("partners")] }, ["external"], []],
          ["manual", { audience: "users", userIds: [userId("external"), userId("max")] }, ["external"], ["max"]]
        ]
        for (const [content, audience, blind, seeing] of cases) {
          const label = `${content} ${JSON.stringify(audience)}`
          const response = yield* expectRefused(
            sendQuiz(token, { contentId: contentId(content), ...audience, dueDate: future }),
            400,
            "RECIPIENT_CANNOT_SEE_CONTENT",
            label
          )
          for (const key of blind) expect(response.json.message, label).toContain(userId(key))
          for (const key of seeing) expect(response.json.message, label).not.toContain(userId(key))
        }
        // Nina was never sent the floor's notes.
        expect((yield* notificationsOf(userId("nina"))).filter((row) => row.notice.title === "Pop quiz: Floor Notes")).toEqual([])
      }))
  })

  describe("callers", () => {
    it.effect("organization admins (owner, admin, billing admin) may send; a team admin, anyone else, or a token without training:assign gets 403", () =>
      Effect.gen(function*() {
        const { badTokens, contentId, freshToken, teamId, token, userId } = yield* setup
        const body = { contentId: contentId("floorNotes"), audience: "teams", teamIds: [teamId("floor")], dueDate: future }
        for (const key of ["owner", "admin", "billingAdmin"]) {
          expect((yield* sendQuiz(yield* freshToken(key), body)).status, key).toBe(201)
        }
        // A team admin naming only people on their own team is still refused: sending is for organization admins.
        for (const key of ["teamAdmin", "viewer", "external", "unscoped", "lena"]) {
          yield* expectRefused(sendQuiz(token(key), body), 403, "FORBIDDEN", key)
        }
        yield* expectRefused(
          sendQuiz(token("teamAdmin"), { ...body, audience: "users", teamIds: undefined, userIds: [userId("lena")] }),
          403,
          "FORBIDDEN",
          "team admin, own team member"
        )
        for (const [kind, bad] of Object.entries(badTokens)) {
          yield* expectRefused(sendQuiz(bad, body), 401, "UNAUTHORIZED", kind)
        }
      }))

    it.effect("another organization's admin cannot send on this organization's content or to its people (400, nothing created)", () =>
      Effect.gen(function*() {
        const { contentId, elsewhere, freshToken, userId } = yield* setup
        const otto = yield* freshToken("otto")
        yield* expectRefused(
          sendQuiz(otto, { contentId: contentId("manual"), audience: "everyone", dueDate: future }),
          400,
          "UNKNOWN_CONTENT",
          "our content"
        )
        yield* expectRefused(
          sendQuiz(otto, { contentId: elsewhere.ids.content.theirs!, audience: "users", userIds: [userId("lena")], dueDate: future }),
          400,
          "UNKNOWN_USER",
          "our person"
        )
      }))
  })

  describe("503: questions cannot be started", () => {
    it.effect("content with nothing to ask about is 503 POP_QUIZ_GENERATION_FAILED and nothing is created", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, userId } = yield* setup
        const response = yield* expectRefused(
          sendQuiz(yield* freshToken("admin"), { contentId: contentId("silent"), audience: "users", userIds: [userId("lena")], dueDate: future }),
          503,
          "POP_QUIZ_GENERATION_FAILED",
          "silent video"
        )
        expect(response.json.message).toContain("safe to try again")
      }))
  })

  describe("429", () => {
    it.effect("31 calls in a minute on one token: the last is 429 with Retry-After and creates nothing; another token is unaffected", () =>
      Effect.gen(function*() {
        const { contentId, freshToken, token, userId } = yield* setup
        const limited = token("limited")
        const valid = { contentId: contentId("manual"), audience: "users", userIds: [userId("lena")], dueDate: future }
        // Refused calls count too (the limit comes first). A burst straddling two minutes would be counted in both.
        yield* clearOfMinuteEnd
        for (let i = 0; i < 29; i++) expect((yield* sendQuiz(limited, { ...valid, contentId: "cnt_nope" })).status).toBe(400)
        const last = yield* sendQuiz(limited, valid)
        expect(last.status).toBe(201)
        expect(last.headers.get("ratelimit-remaining")).toBe("0")
        const refused = yield* expectRefused(sendQuiz(limited, valid), 429, "RATE_LIMITED", "31st")
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
        expect((yield* sendQuiz(yield* freshToken("limited"), valid)).status).toBe(201)
      }))
  })
})

/** A question generator that is down: sending must not create anything. */
const downSetup = once(setUpCallers(quizco, elsewhere))

const Down = Layer.succeed(QuestionGenerator, {
  name: "down",
  generate: () => Effect.fail(new QuestionGenerationFailed({ reason: "the model did not answer within 30s" }))
})

layer(testServerWith(Layer.merge(TestAdaptersLive, Down)), { excludeTestServices: true })("POST /v1/pop-quizzes, generator down", (it) => {
  it.effect("when the question generator fails, 503 POP_QUIZ_GENERATION_FAILED with the reason, nothing created; safe to retry", () =>
    Effect.gen(function*() {
      const { contentId, freshToken, orgId, userId } = yield* downSetup
      const token = yield* freshToken("admin")
      const body = { contentId: contentId("manual"), audience: "everyone", dueDate: future }
      for (let attempt = 1; attempt <= 2; attempt++) {
        const response = yield* expectRefused(sendQuiz(token, body), 503, "POP_QUIZ_GENERATION_FAILED", `attempt ${attempt}`, downSetup)
        expect(response.json.message).toContain("the model did not answer within 30s")
      }
      // Only the fixture's quiz; nobody was told anything.
      expect(yield* popQuizState(orgId)).toMatchObject({ quizzes: 1 })
      expect(yield* notificationsOf(userId("lena"))).toEqual([])
    }))
})
