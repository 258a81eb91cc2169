import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Lena's training in Train Co (packages/core/testing/training-reads.ts), with the caller matrix. */
const setup = callerMatrixOnce(trainco)

const base = "http://localhost:3000/v1"
const day = (date: string) => `${date}T00:00:00.000Z`

layer(TestServerLive, { excludeTestServices: true })("GET /v1/me/obligations, /v1/me/enrollments, /v1/me/pop-quizzes", (it) => {
  it.effect("own obligations: active and completed only, newest first; overdue only when active and past due; names whatever the person can read", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const { items, lessons, obligations, topics } = result.ids
      const response = yield* raw("GET", "/v1/me/obligations", { token: result.tokens.lena })
      expect(response.status).toBe(200)
      const row = (key: string, fields: object) => ({ id: obligations[key], required: true, dueDate: null, overdue: false, ...fields })
      expect(response.json).toEqual({
        data: [
          row("bend", { itemType: "item", itemId: items.bend, itemName: "Bend the knees", status: "active", url: `${base}/items/${items.bend}`, createdAt: day("2026-06-06") }),
          row("lifting", {
            itemType: "topic",
            itemId: topics.lifting,
            itemName: "Lifting",
            required: false,
            status: "active",
            dueDate: day("2099-01-01"),
            url: `${base}/topics/${topics.lifting}`,
            createdAt: day("2026-06-05")
          }),
          row("basicsRetrain", {
            itemType: "lesson",
            itemId: lessons.basics,
            itemName: "Forklift Safety Basics",
            status: "active",
            dueDate: day("2099-06-01"),
            url: `${base}/lessons/${lessons.basics}`,
            createdAt: day("2026-06-01")
          }),
          // Completed after its due date passed: not overdue.
          row("basicsDone", {
            itemType: "lesson",
            itemId: lessons.basics,
            itemName: "Forklift Safety Basics",
            status: "completed",
            dueDate: day("2026-04-01"),
            url: `${base}/lessons/${lessons.basics}`,
            createdAt: day("2026-02-20")
          }),
          // A topic in a space only admins read: still named for the person who owes it.
          row("keys", { itemType: "topic", itemId: topics.keys, itemName: "Key custody", status: "completed", url: `${base}/topics/${topics.keys}`, createdAt: day("2026-01-05") }),
          row("refresher", {
            itemType: "lesson",
            itemId: lessons.refresher,
            itemName: "safety FORKLIFT refresher",
            status: "active",
            dueDate: day("2020-01-01"),
            overdue: true,
            url: `${base}/lessons/${lessons.refresher}`,
            createdAt: day("2019-12-01")
          })
        ],
        nextCursor: null
      })
      // The cancelled and the waived obligation are not listed.
      expect(response.text).not.toContain(obligations.cancelled)
      expect(response.text).not.toContain(obligations.waived)
    }))

  it.effect("own enrollments newest first; score only where recorded; the due date of the active lesson obligation, else the latest", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const { enrollments, lessons } = result.ids
      const page = yield* (yield* clientFor(result.tokens.lena)).training.myEnrollments()
      const enrollment = (key: string, lesson: string, title: string, fields: object) => ({
        id: enrollments[key],
        itemId: lessons[lesson],
        title,
        status: "in_progress",
        completedAt: null,
        url: `${base}/lessons/${lessons[lesson]}`,
        ...fields
      })
      expect(page).toEqual({
        data: [
          enrollment("lenaBasicsAgain", "basics", "Forklift Safety Basics", { dueDate: day("2099-06-01"), enrolledAt: day("2026-06-01") }),
          // Only admins read the lesson; its title is the person's own.
          enrollment("lenaAdmin", "adminOnly", "Incident Command for Admins", { dueDate: day("2026-09-01"), enrolledAt: day("2026-05-01") }),
          enrollment("lenaRefresher", "refresher", "safety FORKLIFT refresher", { dueDate: day("2020-01-01"), enrolledAt: day("2026-04-01") }),
          enrollment("lenaBasicsDone", "basics", "Forklift Safety Basics", {
            status: "completed",
            completedAt: day("2026-03-10"),
            score: 1,
            dueDate: day("2099-06-01"),
            enrolledAt: day("2026-03-01")
          })
        ],
        nextCursor: null
      })
      const wire = yield* raw("GET", "/v1/me/enrollments", { token: result.tokens.lena })
      expect(wire.json.data.map((row: object) => "score" in row)).toEqual([false, false, false, true])
    }))

  it.effect("own pop quizzes newest first, with the person's own status, completion and score", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quizzes = result.ids.popQuizzes
      const lena = yield* raw("GET", "/v1/me/pop-quizzes", { token: result.tokens.lena })
      expect(lena.json).toEqual({
        data: [
          {
            id: quizzes.latest,
            title: "Forklift pop quiz",
            prompt: "Three quick questions",
            dueDate: day("2099-01-01"),
            url: `${base}/pop-quizzes/${quizzes.latest}`,
            status: "not_started",
            completedAt: null,
            score: null
          },
          {
            id: quizzes.byAdmin,
            title: "Pop quiz: Forklift Manual",
            prompt: "Answer a few questions about \"Forklift Manual\".",
            dueDate: day("2099-01-01"),
            url: `${base}/pop-quizzes/${quizzes.byAdmin}`,
            status: "COMPLETED",
            completedAt: day("2026-05-02"),
            score: 0.8
          }
        ],
        nextCursor: null
      })
      const victor = yield* raw("GET", "/v1/me/pop-quizzes", { token: tokens.viewer })
      expect(victor.json.data.map((row: any) => [row.id, row.status, row.score])).toEqual([
        [quizzes.latest, "STARTED", null],
        [quizzes.byAdmin, "COMPLETED", 1],
        [quizzes.system, "COMPLETED", 0.6]
      ])
    }))

  it.effect("each caller gets only their own records, whatever their role; another organization's admin none of these", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = (path: string, token: string) => raw("GET", path, { token }).pipe(Effect.map((r) => r.json.data.map((row: any) => row.id)))
      expect(yield* ids("/v1/me/obligations", tokens.viewer)).toEqual([result.ids.obligations.victorTeam])
      expect(yield* ids("/v1/me/enrollments", tokens.viewer)).toEqual([result.ids.enrollments.victorTeam])
      expect(yield* ids("/v1/me/pop-quizzes", tokens.teamAdmin)).toEqual([result.ids.popQuizzes.byGwen])
      for (const kind of ["owner", "admin", "billingAdmin", "external", "otherOrgAdmin"] as const) {
        for (const path of ["/v1/me/obligations", "/v1/me/enrollments", "/v1/me/pop-quizzes"]) {
          const response = yield* raw("GET", path, { token: tokens[kind] })
          expect(response.json, `${kind} ${path}`).toEqual({ data: [], nextCursor: null })
        }
      }
    }))

  it.effect("no parameter names another person: a userId is 400, cursor and limit change nothing (one page), and a path with an id is 404", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const token = result.tokens.lena
      const refused = yield* raw("GET", `/v1/me/obligations?userId=${result.ids.people.viewer}`, { token })
      expectError(refused, 400, "VALIDATION_ERROR", "userId")
      expect(refused.json.issues.map((issue: { path: string }) => issue.path)).toEqual(["userId"])
      const all = yield* raw("GET", "/v1/me/obligations", { token })
      expect(all.json.data.length).toBeGreaterThan(1)
      for (const query of ["limit=1", "cursor=x"]) {
        const paged = yield* raw("GET", `/v1/me/obligations?${query}`, { token })
        expect(paged.json, query).toEqual(all.json)
      }
      expect((yield* raw("GET", `/v1/me/${result.ids.people.viewer}/obligations`, { token })).status).toBe(404)
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) {
        for (const path of ["/v1/me/obligations", "/v1/me/enrollments", "/v1/me/pop-quizzes"]) {
          expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${kind} ${path}`)
        }
      }
    }))
})
