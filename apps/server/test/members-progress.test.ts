import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Train Co (packages/core/testing/training-reads.ts) with the caller matrix. */
const setup = callerMatrixOnce(trainco)

/** Everyone who has finished setting up, by login name (the email, lower-cased): Dan never signed up. */
const byLogin = [
  "Zoe Zed", // A.Zoe@train.test
  "adam Admin",
  "Bella Billing",
  "Eddie Expired",
  "Ella External",
  "Gwen Gone",
  "Lena Learner",
  "Olivia Owner",
  "Rita Revoked",
  "Tara Teamadmin",
  "Victor Viewer"
]
const namesOf = (response: { json: any }): Array<string> => response.json.data.map((row: { name: string }) => row.name)
const progress = (query: string, token: string | undefined) => raw("GET", `/v1/members/progress${query}`, { token })

layer(TestServerLive, { excludeTestServices: true })("GET /v1/members/progress", (it) => {
  it.effect("owner, admin and billing admin list everyone signed up, people who left included, by login name, with total", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of ["owner", "admin", "billingAdmin"] as const) {
        const response = yield* progress("", tokens[kind])
        expect(response.status).toBe(200)
        expect(namesOf(response), kind).toEqual(byLogin)
        expect(response.json.total, kind).toBe(byLogin.length)
        expect(response.json.nextCursor, kind).toBeNull()
      }
    }))

  it.effect("a row: employment status, roles held now, distinct lessons enrolled in, pop quizzes received, the newest review", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = result.ids.people
      const page = yield* (yield* clientFor(tokens.admin)).members.progress({ urlParams: {} })
      const row = (key: string) => page.data.find((entry) => entry.id === ids[key])
      expect(row("lena")).toEqual({
        id: ids.lena,
        name: "Lena Learner",
        email: "lena@train.test",
        employmentStatus: "ACTIVE",
        companyRoles: [{ id: result.ids.companyRoles.driver, name: "Forklift Driver" }],
        // Four enrollments of three lessons; the newest of three reviews, one without an author.
        lessonCount: 3,
        popQuizCount: 2,
        lastReviewDate: "2026-06-01T00:00:00.000Z"
      })
      expect(row("gwen")).toMatchObject({ employmentStatus: "DEACTIVATED", lessonCount: 1, popQuizCount: 1, lastReviewDate: "2026-01-01T00:00:00.000Z" })
      expect(row("viewer")).toMatchObject({ lessonCount: 1, popQuizCount: 3, lastReviewDate: "2026-03-03T00:00:00.000Z" })
      expect(row("teamAdmin")).toMatchObject({ lessonCount: 0, popQuizCount: 1, lastReviewDate: "2026-04-04T00:00:00.000Z" })
      expect(row("zoe")).toMatchObject({ email: "A.Zoe@train.test", companyRoles: [], lessonCount: 0, popQuizCount: 0, lastReviewDate: null })
      expect(row("dan")).toBeUndefined()
    }))

  it.effect("anyone else gets only their own row, and lastReviewDate only from reviews they wrote about themself", () =>
    Effect.gen(function*() {
      const { result, tokens, userIds } = yield* setup
      const cases: ReadonlyArray<readonly [string, string, string, string | null]> = [
        ["Lena", result.tokens.lena!, result.ids.people.lena!, "2026-02-01T00:00:00.000Z"],
        ["Victor", tokens.viewer, userIds.viewer, "2026-01-05T00:00:00.000Z"],
        // Tara's only review was written by the owner.
        ["Tara", tokens.teamAdmin, userIds.teamAdmin, null]
      ]
      for (const [label, token, id, lastReviewDate] of cases) {
        const response = yield* progress("", token)
        expect(response.status, label).toBe(200)
        expect(response.json.total, label).toBe(1)
        expect(response.json.data.map((row: any) => [row.id, row.lastReviewDate]), label).toEqual([[id, lastReviewDate]])
      }
      const none = yield* progress("?query=zoe", tokens.viewer)
      expect(none.json).toEqual({ data: [], nextCursor: null, total: 0 })
    }))

  it.effect("an external account gets 403; another organization's admin lists only their own organization", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      expectError(yield* progress("", tokens.external), 403, "FORBIDDEN")
      const other = yield* progress("", tokens.otherOrgAdmin)
      expect(namesOf(other)).toEqual(["Otto Other", "Pia Provisioned"])
      expect(other.json.total).toBe(2)
    }))

  it.effect("query matches anywhere in name or email, ignoring case; teamId keeps that team's members", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const names = (query: string) => progress(query, tokens.admin).pipe(Effect.map(namesOf))
      expect(yield* names("?query=TRAIN.TEST")).toEqual(["Zoe Zed", "Gwen Gone", "Lena Learner"])
      expect(yield* names("?query=learner")).toEqual(["Lena Learner"])
      expect(yield* names("?query=%25")).toEqual([])
      expect(yield* names(`?teamId=${result.ids.teams.matrixTeam}`)).toEqual(["Tara Teamadmin", "Victor Viewer"])
      const floor = yield* progress(`?teamId=${result.ids.teams.floor}&query=a`, tokens.owner)
      expect(namesOf(floor)).toEqual(["Lena Learner", "Tara Teamadmin"])
      expect(floor.json.total).toBe(2)
    }))

  it.effect("a team of another organization or an unknown team is 400 Unknown teamId, for an admin and a viewer", () =>
    Effect.gen(function*() {
      const { other, tokens } = yield* setup
      for (const token of [tokens.admin, tokens.viewer]) {
        for (const team of [other.ids.teams.otherTeam, "team_nope"]) {
          const response = yield* progress(`?teamId=${team}`, token)
          expect(response.status).toBe(400)
          expect(response.json).toEqual({ _tag: "BadRequest", code: "UNKNOWN_TEAM", message: "Unknown teamId", requestId: expect.any(String) })
        }
      }
    }))

  it.effect("pages of 2 walk every row once, in login order, with a constant total", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const { pages, rows, totals } = yield* walkPages("/v1/members/progress", tokens.admin, 2)
      expect(rows.map((row) => row.name)).toEqual(byLogin)
      expect([...totals]).toEqual([byLogin.length])
      expect(pages).toBe(Math.ceil(byLogin.length / 2))
    }))

  it.effect("a tampered or made-up cursor, or one of another filter or listing, is 400 INVALID_CURSOR; a bad limit is 400", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const first = yield* progress("?limit=1", tokens.admin)
      const members = yield* raw("GET", "/v1/members?limit=1", { token: tokens.admin })
      const cursor = encodeURIComponent(first.json.nextCursor)
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["tampered", `?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`],
        ["made up", "?cursor=nope"],
        ["another query", `?query=a&cursor=${cursor}`],
        ["the members list", `?cursor=${encodeURIComponent(members.json.nextCursor)}`]
      ]
      for (const [label, query] of cases) expectError(yield* progress(query, tokens.admin), 400, "INVALID_CURSOR", label)
      for (const limit of ["0", "101", "abc"]) expectError(yield* progress(`?limit=${limit}`, tokens.admin), 400, "VALIDATION_ERROR", limit)
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* progress("", tokens[kind]), 401, "UNAUTHORIZED", kind)
    }))
})
