import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { PopQuizId } from "@tks/domain/ids"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Train Co's pop quizzes (packages/core/testing/training-reads.ts) with the caller matrix. */
const setup = callerMatrixOnce(trainco)

const base = "http://localhost:3000/v1"
const day = (date: string) => `${date}T00:00:00.000Z`
const idsOf = (response: { json: any }): Array<string> => response.json.data.map((row: { id: string }) => row.id)

/** Newest first; the two sent on the same instant id-descending. */
const newestFirst = (ids: Record<string, string>) => [
  ids.latest!,
  ids.byAdmin!,
  ids.system!,
  ids.byGwen!,
  ...[ids.tie1!, ids.tie2!].sort().reverse()
]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/pop-quizzes and /v1/pop-quizzes/{id}", (it) => {
  it.effect("owner, admin and billing admin list the organization's pop quizzes newest first, with their counts", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quizzes = result.ids.popQuizzes
      for (const kind of ["owner", "admin", "billingAdmin"] as const) {
        const response = yield* raw("GET", "/v1/pop-quizzes", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(idsOf(response), kind).toEqual(newestFirst(quizzes))
        expect(response.json.nextCursor, kind).toBeNull()
      }
      const page = yield* (yield* clientFor(tokens.admin)).popQuizzes.list({ urlParams: {} })
      expect(page.data[0]).toEqual({
        id: quizzes.latest,
        title: "Forklift pop quiz",
        prompt: "Three quick questions",
        dueDate: day("2099-01-01"),
        createdAt: day("2026-06-01"),
        sentBy: { id: result.ids.people.owner, name: "Olivia Owner" },
        announcementId: "ann_42",
        recipientCount: 2,
        completedCount: 0,
        url: `${base}/pop-quizzes/${quizzes.latest}`
      })
      const counts = page.data.map((row) => [row.recipientCount, row.completedCount, row.sentBy?.name ?? null])
      expect(counts).toEqual([[2, 0, "Olivia Owner"], [3, 2, "adam Admin"], [1, 1, null], [1, 0, "Gwen Gone"], [0, 0, "adam Admin"], [0, 0, "adam Admin"]])
    }))

  it.effect("sentByMe=true keeps the quizzes the caller sent; false lists them all; another value is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quizzes = result.ids.popQuizzes
      expect(idsOf(yield* raw("GET", "/v1/pop-quizzes?sentByMe=true", { token: tokens.admin }))).toEqual(
        newestFirst(quizzes).filter((id) => [quizzes.byAdmin, quizzes.tie1, quizzes.tie2].includes(id))
      )
      expect(idsOf(yield* raw("GET", "/v1/pop-quizzes?sentByMe=true", { token: tokens.owner }))).toEqual([quizzes.latest])
      expect(idsOf(yield* raw("GET", "/v1/pop-quizzes?sentByMe=true", { token: tokens.billingAdmin }))).toEqual([])
      expect(idsOf(yield* raw("GET", "/v1/pop-quizzes?sentByMe=false", { token: tokens.billingAdmin }))).toHaveLength(6)
      expectError(yield* raw("GET", "/v1/pop-quizzes?sentByMe=yes", { token: tokens.admin }), 400, "VALIDATION_ERROR")
    }))

  it.effect("a viewer, a team admin, an external account and a recipient get 403; another organization's admin sees none of these", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const token of [tokens.viewer, tokens.teamAdmin, tokens.external, result.tokens.lena!]) {
        expectError(yield* raw("GET", "/v1/pop-quizzes", { token }), 403, "FORBIDDEN")
      }
      expect((yield* raw("GET", "/v1/pop-quizzes", { token: tokens.otherOrgAdmin })).json).toEqual({ data: [], nextCursor: null })
    }))

  it.effect("pages of 1 and 4 walk the list once, newest first, the tie included; bad cursors and limits are 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ones = yield* walkPages("/v1/pop-quizzes", tokens.admin, 1)
      expect(ones.rows.map((row) => row.id)).toEqual(newestFirst(result.ids.popQuizzes))
      expect(ones.pages).toBe(6)
      const mine = yield* walkPages("/v1/pop-quizzes?sentByMe=true", tokens.admin, 2)
      expect(mine.rows).toHaveLength(3)
      const first = yield* raw("GET", "/v1/pop-quizzes?limit=1", { token: tokens.admin })
      const cursor: string = first.json.nextCursor
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["tampered", `?cursor=${encodeURIComponent(tamperCursor(cursor))}`],
        ["made up", "?cursor=nope"],
        ["another filter", `?sentByMe=true&cursor=${encodeURIComponent(cursor)}`]
      ]
      for (const [label, query] of cases) expectError(yield* raw("GET", `/v1/pop-quizzes${query}`, { token: tokens.admin }), 400, "INVALID_CURSOR", label)
      for (const limit of ["0", "101"]) expectError(yield* raw("GET", `/v1/pop-quizzes?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
    }))

  it.effect("an organization admin sees every recipient by name, a departed one included, and the counts of them all", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = result.ids.people
      const quiz = result.ids.popQuizzes.byAdmin!
      const response = yield* raw("GET", `/v1/pop-quizzes/${quiz}`, { token: tokens.billingAdmin })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        id: quiz,
        title: "Pop quiz: Forklift Manual",
        prompt: "Answer a few questions about \"Forklift Manual\".",
        dueDate: day("2099-01-01"),
        createdAt: day("2026-05-01"),
        url: `${base}/pop-quizzes/${quiz}`,
        recipients: [
          { user: { id: ids.gwen, name: "Gwen Gone", email: "gwen@train.test" }, status: "not_started", completedAt: null, score: null },
          { user: { id: ids.lena, name: "Lena Learner", email: "lena@train.test" }, status: "COMPLETED", completedAt: day("2026-05-02"), score: 0.8 },
          { user: { id: ids.viewer, name: "Victor Viewer", email: "victor@acme.test" }, status: "COMPLETED", completedAt: day("2026-05-03"), score: 1 }
        ],
        summary: { recipientCount: 3, completedCount: 2 }
      })
      const empty = yield* raw("GET", `/v1/pop-quizzes/${result.ids.popQuizzes.tie1}`, { token: tokens.owner })
      expect(empty.json).toMatchObject({ recipients: [], summary: { recipientCount: 0, completedCount: 0 } })
    }))

  it.effect("a recipient sees only their own row, and the summary counts the rows shown", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quiz = result.ids.popQuizzes.byAdmin!
      const lena = yield* (yield* clientFor(result.tokens.lena)).popQuizzes.get({ path: { id: PopQuizId.make(quiz) } })
      expect(lena.recipients).toEqual([
        { user: { id: result.ids.people.lena, name: "Lena Learner", email: "lena@train.test" }, status: "COMPLETED", completedAt: day("2026-05-02"), score: 0.8 }
      ])
      expect(lena.summary).toEqual({ recipientCount: 1, completedCount: 1 })
      const tara = yield* raw("GET", `/v1/pop-quizzes/${result.ids.popQuizzes.byGwen}`, { token: tokens.teamAdmin })
      expect(tara.json.recipients.map((row: any) => row.user.name)).toEqual(["Tara Teamadmin"])
      expect(tara.json.summary).toEqual({ recipientCount: 1, completedCount: 0 })
    }))

  it.effect("anyone else gets 404: a member not sent the quiz, an external account, another organization's admin, an unknown id", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quizzes = result.ids.popQuizzes
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["Tara, not sent it", quizzes.byAdmin!, tokens.teamAdmin],
        ["Victor, not sent it", quizzes.byGwen!, tokens.viewer],
        ["Lena, not sent it", quizzes.system!, result.tokens.lena!],
        ["external", quizzes.byAdmin!, tokens.external],
        ["another organization's admin", quizzes.byAdmin!, tokens.otherOrgAdmin],
        ["unknown", "pq_nope", tokens.admin]
      ]
      for (const [label, id, token] of cases) expectError(yield* raw("GET", `/v1/pop-quizzes/${id}`, { token }), 404, "NOT_FOUND", label)
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        for (const path of ["/v1/pop-quizzes", `/v1/pop-quizzes/${result.ids.popQuizzes.byAdmin}`]) {
          expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${kind} ${path}`)
        }
      }
    }))
})
