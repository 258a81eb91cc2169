import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { badTokens, callerMatrixOnce, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Train Co's lessons (packages/core/testing/training-reads.ts) with the caller matrix. */
const setup = callerMatrixOnce(trainco)

const titlesOf = (response: { json: any }): Array<string> => response.json.data.map((row: { title: string }) => row.title)

/** The two lessons created at the same instant come id-descending. */
const ties = (ids: Record<string, string>) =>
  [["Tie Alpha", ids.tieA!], ["Tie Beta", ids.tieB!]].sort((a, b) => (a[1]! < b[1]! ? 1 : -1)).map(([title]) => title!)

const everyLesson = (ids: Record<string, string>) => [
  ...ties(ids),
  "Lena's catch-up plan",
  "Closed Course",
  "Partner Briefing",
  "Matrix Team Drills",
  "Incident Command for Admins",
  "safety FORKLIFT refresher",
  "Forklift Safety Basics"
]
const everyoneAndMatrixTeam = (ids: Record<string, string>) =>
  everyLesson(ids).filter((title) => title !== "Partner Briefing" && title !== "Incident Command for Admins")

layer(TestServerLive, { excludeTestServices: true })("GET /v1/lessons", (it) => {
  it.effect("each caller lists the lessons they can read, most recent first; another organization's admin sees their own (none)", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = result.ids.lessons
      const expected: Record<CallerKind, ReadonlyArray<string>> = {
        owner: everyLesson(ids),
        admin: everyLesson(ids),
        billingAdmin: everyLesson(ids),
        // Victor and Tara are on Matrix Team, not on Partners.
        viewer: everyoneAndMatrixTeam(ids),
        teamAdmin: everyoneAndMatrixTeam(ids),
        // An external account reads no lesson for everyone, only its team's.
        external: ["Partner Briefing"],
        otherOrgAdmin: []
      }
      for (const [kind, titles] of Object.entries(expected)) {
        const page = yield* (yield* clientFor(tokens[kind as CallerKind])).lessons.list({ urlParams: {} })
        expect(page.data.map((row) => row.title), kind).toEqual(titles)
        expect(page.nextCursor, kind).toBeNull()
      }
    }))

  it.effect("a row is the lesson's metadata: status, visibility, personal, timestamps and its link", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", "/v1/lessons?query=closed", { token: tokens.admin })
      expect(response.status).toBe(200)
      const id = result.ids.lessons.closed
      expect(response.json).toEqual({
        data: [{
          id,
          title: "Closed Course",
          status: "closed",
          visibility: "everyone",
          personal: false,
          url: `http://localhost:3000/v1/lessons/${id}`,
          createdAt: "2026-06-10T00:00:00.000Z",
          updatedAt: "2026-06-20T00:00:00.000Z"
        }],
        nextCursor: null
      })
      const personal = yield* raw("GET", "/v1/lessons?query=catch-up", { token: tokens.viewer })
      expect(personal.json.data).toEqual([expect.objectContaining({ personal: true, status: "open", visibility: "everyone" })])
      const admins = yield* raw("GET", "/v1/lessons?query=incident", { token: tokens.owner })
      expect(admins.json.data).toEqual([expect.objectContaining({ visibility: "admins" })])
    }))

  it.effect("query keeps titles holding every word, in any order and case; a word missing from the title empties the list", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const titles = (query: string) => raw("GET", `/v1/lessons?query=${encodeURIComponent(query)}`, { token: tokens.viewer }).pipe(Effect.map(titlesOf))
      expect(yield* titles("SAFETY forklift")).toEqual(["safety FORKLIFT refresher", "Forklift Safety Basics"])
      expect(yield* titles("forklift   basics")).toEqual(["Forklift Safety Basics"])
      expect(yield* titles("basics refresher")).toEqual([])
      expect(yield* titles("%")).toEqual([])
      expect(yield* titles("  ")).toHaveLength(7)
      // The admins-only lesson stays out of a viewer's search.
      expect(yield* titles("incident")).toEqual([])
    }))

  it.effect("pages of 1 and 3 walk the whole listing once, newest first, the tie included", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ones = yield* walkPages("/v1/lessons", tokens.admin, 1)
      expect(ones.rows.map((row) => row.title)).toEqual(everyLesson(result.ids.lessons))
      expect(ones.pages).toBe(9)
      const threes = yield* walkPages("/v1/lessons?query=t", tokens.viewer, 3)
      const whole = yield* raw("GET", "/v1/lessons?query=t", { token: tokens.viewer })
      expect(threes.rows).toEqual(whole.json.data)
    }))

  it.effect("a tampered or made-up cursor, or one of another caller or query, is 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const first = yield* raw("GET", "/v1/lessons?limit=1", { token: tokens.admin })
      const cursor = encodeURIComponent(first.json.nextCursor)
      const cases: ReadonlyArray<readonly [string, string, string]> = [
        ["tampered", `/v1/lessons?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`, tokens.admin],
        ["made up", "/v1/lessons?cursor=nope", tokens.admin],
        ["another query", `/v1/lessons?query=tie&cursor=${cursor}`, tokens.admin],
        ["another caller", `/v1/lessons?cursor=${cursor}`, tokens.owner]
      ]
      for (const [label, path, token] of cases) expectError(yield* raw("GET", path, { token }), 400, "INVALID_CURSOR", label)
    }))

  it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `/v1/lessons?limit=${limit}`, { token: tokens.viewer }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", "/v1/lessons", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
