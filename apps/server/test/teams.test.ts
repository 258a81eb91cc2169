import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, badTokens } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

/** Acme's teams: Alpha, Empty, night shift, Ops, Partners (see @tks/core/testing/organizations). */
const setup = acmeCallerMatrix

const walkTeams = (token: string, limit: number) =>
  Effect.gen(function*() {
    const client = yield* clientFor(token)
    const names: Array<string> = []
    let cursor: string | undefined = undefined
    let pages = 0
    do {
      const page: { data: ReadonlyArray<{ name: string }>; nextCursor: string | null } = yield* client.teams.list({
        urlParams: { limit, ...(cursor === undefined ? {} : { cursor }) }
      })
      expect(page.data.length).toBeLessThanOrEqual(limit)
      names.push(...page.data.map((team) => team.name))
      cursor = page.nextCursor ?? undefined
      pages++
    } while (cursor !== undefined && pages < 20)
    return { names, pages }
  })

/** By lower-cased name: "night shift" sorts between Empty and Ops. */
const allNames = ["Alpha", "Empty", "night shift", "Ops", "Partners"]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/teams", (it) => {
  describe("who sees which teams", () => {
    it.effect("organization admins (owner, admin, billing admin) see every team, by name ignoring case, with member counts", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of ["owner", "admin", "billingAdmin"] as const) {
          const page = yield* (yield* clientFor(tokens[kind])).teams.list({ urlParams: {} })
          expect(page).toEqual({
            data: [
              { id: result.ids.teams.alpha, name: "Alpha", memberCount: 2 },
              { id: result.ids.teams.empty, name: "Empty", memberCount: 0 },
              { id: result.ids.teams.nightShift, name: "night shift", memberCount: 1 },
              { id: result.ids.teams.ops, name: "Ops", memberCount: 3 },
              { id: result.ids.teams.partners, name: "Partners", memberCount: 1 }
            ],
            nextCursor: null
          })
        }
      }))

    it.effect("a viewer sees only the teams they are on", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const page = yield* (yield* clientFor(tokens.viewer)).teams.list({ urlParams: {} })
        expect(page.data.map((team) => team.name)).toEqual(["Alpha", "Ops"])
        expect(page.nextCursor).toBeNull()
      }))

    it.effect("a team admin (org viewer) sees the teams they are on, whatever their team role, not every team", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const page = yield* (yield* clientFor(tokens.teamAdmin)).teams.list({ urlParams: {} })
        expect(page.data).toEqual([
          { id: result.ids.teams.alpha, name: "Alpha", memberCount: 2 },
          { id: result.ids.teams.ops, name: "Ops", memberCount: 3 }
        ])
      }))

    it.effect("an external on no team sees none; an external on a team sees that team", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        expect(yield* (yield* clientFor(tokens.external)).teams.list({ urlParams: {} })).toEqual({ data: [], nextCursor: null })
        const onTeam = yield* (yield* clientFor(result.tokens.omar)).teams.list({ urlParams: {} })
        expect(onTeam.data).toEqual([{ id: result.ids.teams.partners, name: "Partners", memberCount: 1 }])
      }))

    it.effect("a deactivated member is not counted in memberCount", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const page = yield* (yield* clientFor(tokens.admin)).teams.list({ urlParams: {} })
        // Ops holds Tara, Victor, Rex and Dora, who left; night shift Olivia and Gus, who left.
        expect(page.data.find((team) => team.name === "Ops")?.memberCount).toBe(3)
        expect(page.data.find((team) => team.name === "night shift")?.memberCount).toBe(1)
      }))

    it.effect("another organization's admin sees only their own organization's teams", () =>
      Effect.gen(function*() {
        const { other, tokens } = yield* setup
        expect(yield* (yield* clientFor(tokens.otherOrgAdmin)).teams.list({ urlParams: {} })).toEqual({
          data: [{ id: other.ids.teams.otherTeam, name: "Other Team", memberCount: 1 }],
          nextCursor: null
        })
        const third = yield* importFixture({
          organization: { name: "Third Org" },
          people: [{ key: "thirdAdmin", name: "Thea Third", email: "thea@third.test", role: "admin", tokenScopes: [] }],
          teams: [{ key: "alpha", name: "Alpha", members: [{ person: "thirdAdmin" }] }]
        })
        const page = yield* (yield* clientFor(third.tokens.thirdAdmin)).teams.list({ urlParams: {} })
        expect(page).toEqual({ data: [{ id: third.ids.teams.alpha, name: "Alpha", memberCount: 1 }], nextCursor: null })
      }))
  })

  describe("pagination", () => {
    it.effect("an admin walking pages of 2 gets every team once, in order, and the last page says null", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        expect(yield* walkTeams(tokens.admin, 2)).toEqual({ names: allNames, pages: 3 })
        expect(yield* walkTeams(tokens.owner, 4)).toEqual({ names: allNames, pages: 2 })
      }))

    it.effect("a viewer walking pages of 1 gets their teams once each, in order", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        expect(yield* walkTeams(tokens.viewer, 1)).toEqual({ names: ["Alpha", "Ops"], pages: 2 })
      }))

    it.effect("a tampered cursor, a made-up one, and one from another listing (another caller, another organization) are 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const adminPage = yield* (yield* clientFor(tokens.admin)).teams.list({ urlParams: { limit: 1 } })
        const viewerPage = yield* (yield* clientFor(tokens.viewer)).teams.list({ urlParams: { limit: 1 } })
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["tampered", tokens.admin, tamperCursor(adminPage.nextCursor!)],
          ["made up", tokens.admin, "not-a-cursor"],
          ["empty payload", tokens.admin, "."],
          ["viewer's cursor used by an admin", tokens.admin, viewerPage.nextCursor!],
          ["admin's cursor used by a viewer", tokens.viewer, adminPage.nextCursor!],
          ["another organization's admin", tokens.otherOrgAdmin, adminPage.nextCursor!]
        ]
        for (const [label, token, cursor] of cases) {
          const response = yield* raw("GET", `/v1/teams?cursor=${encodeURIComponent(cursor)}`, { token })
          expect(response.status, label).toBe(400)
          expect(response.json, label).toMatchObject({ code: "INVALID_CURSOR", message: expect.any(String) })
        }
      }))

    it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const limit of ["0", "101", "abc", "1.5"]) {
          const response = yield* raw("GET", `/v1/teams?limit=${limit}`, { token: tokens.admin })
          expect(response.status, limit).toBe(400)
          expect(response.json, limit).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) })
        }
      }))
  })

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) {
        const response = yield* raw("GET", "/v1/teams", { token: tokens[kind] })
        expect(response.status, kind).toBe(401)
        expect(response.json, kind).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
      }
    }))
})
