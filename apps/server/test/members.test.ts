import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { clientFor, importFixture, raw, TestServerLive } from "./support/server.js"

const fixture: OrgFixtureInput = {
  organization: { name: "Members Org" },
  people: [
    { key: "dora", name: "Dora Departed", email: "dora@members.test", role: "viewer", status: "DEACTIVATED", phone: "+15550100", deactivatedAt: "2026-02-03T04:05:06.789Z" },
    { key: "rex", name: "Rex Reports", email: "rex@members.test", role: "viewer", manager: "dora" },
    { key: "nina", name: "Nina Offbook", email: "nina@members.test", role: "viewer", manager: { name: "Outside Boss", email: "boss@elsewhere.test" } },
    { key: "percy", name: "Percy 100% Sure", email: "percy@members.test", role: "viewer" },
    { key: "una", name: "Una Under_score", email: "una@members.test", role: "viewer" },
    { key: "dan", name: "Dan Directory", email: "dan@members.test", role: "viewer", directoryManaged: true, signedUp: false }
  ],
  teams: [{ key: "ops", name: "Ops", members: [{ person: "rex" }, { person: "dora" }, { person: "teamAdmin" }] }],
  companyRoles: [
    { key: "driver", name: "Driver", members: [{ person: "rex" }] },
    { key: "clerk", name: "Clerk", members: [{ person: "rex", startedAt: "2025-01-01T00:00:00.000Z", endedAt: "2025-02-01T00:00:00.000Z" }] }
  ],
  invitations: [
    { name: "Ivy Old", email: "ivy@x.test", createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-15T00:00:00.000Z" },
    { name: "Ian Newer", email: "ian@x.test", phone: "+15550200", role: "admin", createdAt: "2026-02-01T00:00:00.000Z", expiresAt: "2099-01-01T00:00:00.000Z" },
    { name: "Ida Newest", email: "ida@x.test", createdAt: "2026-03-01T00:00:00.000Z", expiresAt: "2099-01-01T00:00:00.000Z" }
  ],
  directory: { connection: { status: "PAUSED" } }
}

/** Active people of the organization by name (the matrix people included). */
const activeNames = [
  "Adam Admin",
  "Bella Billing",
  "Dan Directory",
  "Eddie Expired",
  "Ella External",
  "Nina Offbook",
  "Olivia Owner",
  "Percy 100% Sure",
  "Rex Reports",
  "Rita Revoked",
  "Tara Teamadmin",
  "Una Under_score",
  "Victor Viewer"
]
const adminOnlyFields = ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]

const setup = callerMatrixOnce(fixture)


/** Walks a listing through raw calls; returns every row and the totals seen. */
const walk = (path: string, token: string, limit: number) =>
  Effect.gen(function*() {
    const rows: Array<any> = []
    const totals = new Set<unknown>()
    let cursor: string | null = null
    let pages = 0
    do {
      const sep = path.includes("?") ? "&" : "?"
      const url: string = `${path}${sep}limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
      const response = yield* raw("GET", url, { token })
      expect(response.status, url).toBe(200)
      expect(response.json.data.length).toBeLessThanOrEqual(limit)
      if (response.json.nextCursor !== null) expect(response.json.data.length).toBe(limit)
      rows.push(...response.json.data)
      totals.add(response.json.total)
      cursor = response.json.nextCursor
      pages++
    } while (cursor !== null && pages < 30)
    return { rows, totals, pages }
  })

const expectError = (response: { status: number; json: any }, status: number, code: string, label = "") => {
  expect(response.status, label).toBe(status)
  expect(response.json, label).toMatchObject({ code, message: expect.any(String) })
}

layer(TestServerLive, { excludeTestServices: true })("members (SPEC 4.3, 2.5)", (it) => {
  describe("GET /v1/members", () => {
    it.effect("owner, admin and billing admin list every active member by name, with total and the admin-only fields", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of ["owner", "admin", "billingAdmin"] as const) {
          const response = yield* raw("GET", "/v1/members", { token: tokens[kind] })
          expect(response.status).toBe(200)
          expect(response.json.data.map((row: any) => row.name)).toEqual(activeNames)
          expect(response.json.total).toBe(activeNames.length)
          expect(response.json.nextCursor).toBeNull()
          for (const row of response.json.data) for (const key of adminOnlyFields) expect(key in row, key).toBe(true)
        }
      }))

    it.effect("a member row carries roles held now, teams, and the manager; a departed manager is named as DEACTIVATED", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const response = yield* raw("GET", "/v1/members?query=rex", { token: tokens.admin })
        expect(response.json).toEqual({
          data: [{
            id: result.ids.people.rex,
            name: "Rex Reports",
            email: "rex@members.test",
            status: "ACTIVE",
            signedUp: true,
            role: "viewer",
            companyRoles: [{ id: result.ids.companyRoles.driver, name: "Driver" }],
            teams: [{ id: result.ids.teams.ops, name: "Ops", role: "team-viewer" }],
            phone: null,
            directoryManaged: false,
            deactivatedAt: null,
            reportsTo: { id: result.ids.people.dora, name: "Dora Departed", status: "DEACTIVATED" }
          }],
          nextCursor: null,
          total: 1
        })
      }))

    it.effect("an account-less manager is {id: null, name: null, status: null}; no manager is null; a paused directory still manages", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const client = yield* clientFor(tokens.owner)
        const page = yield* client.members.list({ urlParams: { status: "all" } })
        const byName = new Map(page.data.map((row) => [row.name, row]))
        expect(byName.get("Nina Offbook")?.reportsTo).toEqual({ id: null, name: null, status: null })
        expect(byName.get("Percy 100% Sure")?.reportsTo).toBeNull()
        expect(byName.get("Dan Directory")).toMatchObject({ directoryManaged: true, signedUp: false })
        expect(byName.get("Dora Departed")).toMatchObject({
          status: "DEACTIVATED",
          phone: "+15550100",
          deactivatedAt: "2026-02-03T04:05:06.789Z"
        })
      }))

    it.effect("status filters: active by default, deactivated, all; an unknown status is 400", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const gone = yield* raw("GET", "/v1/members?status=deactivated", { token: tokens.admin })
        expect(gone.json.data.map((row: any) => row.name)).toEqual(["Dora Departed"])
        expect(gone.json.total).toBe(1)
        const all = yield* raw("GET", "/v1/members?status=all", { token: tokens.admin })
        expect(all.json.total).toBe(activeNames.length + 1)
        expect(all.json.data.map((row: any) => row.name)).toEqual([...activeNames.slice(0, 3), "Dora Departed", ...activeNames.slice(3)])
        expectError(yield* raw("GET", "/v1/members?status=gone", { token: tokens.admin }), 400, "VALIDATION_ERROR")
      }))

    it.effect("query matches name or email anywhere, ignoring case; % and _ are literal", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const names = (query: string) =>
          raw("GET", `/v1/members?query=${encodeURIComponent(query)}`, { token: tokens.admin }).pipe(
            Effect.map((response) => response.json.data.map((row: any) => row.name))
          )
        expect(yield* names("REPORTS")).toEqual(["Rex Reports"])
        expect(yield* names("Olivia@MATRIX")).toEqual(["Olivia Owner"])
        expect(yield* names("%")).toEqual(["Percy 100% Sure"])
        expect(yield* names("_")).toEqual(["Una Under_score"])
        expect(yield* names("r_x")).toEqual([])
      }))

    it.effect("teamId lists only that team's members; a team outside the organization or unknown is 400 Unknown teamId", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const ops = yield* raw("GET", `/v1/members?teamId=${result.ids.teams.ops}`, { token: tokens.admin })
        expect(ops.json.data.map((row: any) => row.name)).toEqual(["Rex Reports", "Tara Teamadmin"])
        expect(ops.json.total).toBe(2)
        const elsewhere = yield* importFixture({
          organization: { name: "Elsewhere" },
          people: [{ key: "e", name: "E", email: "e@elsewhere.test", role: "owner" }],
          teams: [{ key: "theirs", name: "Theirs", members: [{ person: "e" }] }]
        })
        for (const [token, teamId] of [[tokens.admin, elsewhere.ids.teams.theirs!], [tokens.admin, "tea_nope"], [tokens.viewer, "tea_nope"]]) {
          const response = yield* raw("GET", `/v1/members?teamId=${teamId}`, { token })
          expect(response.status).toBe(400)
          expect(response.json).toEqual({ _tag: "BadRequest", code: "UNKNOWN_TEAM", message: "Unknown teamId", requestId: expect.any(String) })
        }
      }))

    it.effect("noManager=true lists only people with no manager of either kind", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const response = yield* raw("GET", "/v1/members?noManager=true", { token: tokens.billingAdmin })
        const expected = activeNames.filter((name) => name !== "Rex Reports" && name !== "Nina Offbook")
        expect(response.json.data.map((row: any) => row.name)).toEqual(expected)
        expect(response.json.total).toBe(expected.length)
        expectError(yield* raw("GET", "/v1/members?noManager=yes", { token: tokens.admin }), 400, "VALIDATION_ERROR")
      }))

    it.effect("noManager by a viewer or a team admin is 403", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of ["viewer", "teamAdmin"] as const) {
          for (const value of ["true", "false"]) {
            expectError(yield* raw("GET", `/v1/members?noManager=${value}`, { token: tokens[kind] }), 403, "FORBIDDEN", kind)
          }
        }
      }))

    it.effect("a viewer and a team admin get only their own row, without the admin-only keys, total 1", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of ["viewer", "teamAdmin"] as const) {
          const response = yield* raw("GET", "/v1/members?status=all", { token: tokens[kind] })
          expect(response.status).toBe(200)
          expect(response.json.total).toBe(1)
          expect(response.json.nextCursor).toBeNull()
          expect(response.json.data.map((row: any) => row.id)).toEqual([result.ids.people[kind]])
          const row = response.json.data[0]
          expect(Object.keys(row).sort()).toEqual(["companyRoles", "email", "id", "name", "role", "signedUp", "status", "teams"])
          for (const key of adminOnlyFields) expect(key in row, key).toBe(false)
        }
        const filtered = yield* raw("GET", "/v1/members?query=olivia", { token: tokens.viewer })
        expect(filtered.json).toEqual({ data: [], nextCursor: null, total: 0 })
        const ops = yield* raw("GET", `/v1/members?teamId=${result.ids.teams.ops}`, { token: tokens.viewer })
        expect(ops.json).toEqual({ data: [], nextCursor: null, total: 0 })
      }))

    it.effect("an external account gets 403; another organization's admin sees only their own organization", () =>
      Effect.gen(function*() {
        const { other, tokens } = yield* setup
        expectError(yield* raw("GET", "/v1/members", { token: tokens.external }), 403, "FORBIDDEN")
        const page = yield* (yield* clientFor(tokens.otherOrgAdmin)).members.list({ urlParams: {} })
        expect(page.data.map((row) => row.id)).toEqual([other.ids.people.otherOrgAdmin])
        expect(page.total).toBe(1)
      }))

    it.effect("pages of 2 and of 1 walk every member once, in order, total constant", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const limit of [2, 1]) {
          const { pages, rows, totals } = yield* walk("/v1/members", tokens.admin, limit)
          expect(rows.map((row) => row.name)).toEqual(activeNames)
          expect([...totals]).toEqual([activeNames.length])
          expect(pages).toBe(Math.ceil(activeNames.length / limit))
        }
        const filtered = yield* walk("/v1/members?status=all&query=e", tokens.owner, 3)
        const expected = yield* raw("GET", "/v1/members?status=all&query=e", { token: tokens.owner })
        expect(filtered.rows).toEqual(expected.json.data)
      }))

    it.effect("a tampered cursor or one from another listing (filters, caller, organization) is 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const first = yield* raw("GET", "/v1/members?limit=1", { token: tokens.admin })
        const cursor = encodeURIComponent(first.json.nextCursor)
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["tampered", tokens.admin, `/v1/members?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`],
          ["made up", tokens.admin, "/v1/members?cursor=nope"],
          ["other status", tokens.admin, `/v1/members?status=all&cursor=${cursor}`],
          ["other query", tokens.admin, `/v1/members?query=a&cursor=${cursor}`],
          ["other caller", tokens.viewer, `/v1/members?cursor=${cursor}`],
          ["other organization", tokens.otherOrgAdmin, `/v1/members?cursor=${cursor}`],
          ["reporting lines", tokens.admin, `/v1/reporting-lines?cursor=${cursor}`]
        ]
        for (const [label, token, path] of cases) expectError(yield* raw("GET", path, { token }), 400, "INVALID_CURSOR", label)
      }))

    it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const path of ["/v1/members", "/v1/invitations", "/v1/reporting-lines"]) {
          for (const limit of ["0", "101", "abc"]) {
            expectError(yield* raw("GET", `${path}?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", `${path} ${limit}`)
          }
        }
      }))
  })

  describe("GET /v1/members/{id}", () => {
    it.effect("organization admins open anyone with a record, at any status", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of ["owner", "admin", "billingAdmin"] as const) {
          const client = yield* clientFor(tokens[kind])
          const dora = yield* client.members.get({ path: { id: result.ids.people.dora! } })
          expect(dora).toMatchObject({ name: "Dora Departed", status: "DEACTIVATED", reportsTo: null, teams: [{ name: "Ops" }] })
          const viewer = yield* client.members.get({ path: { id: result.ids.people.viewer! } })
          expect(viewer.teams).toEqual([{ id: result.ids.teams.matrixTeam, name: "Matrix Team", role: "team-viewer" }])
        }
      }))

    it.effect("a viewer or team admin opens themself without the admin-only keys; anyone else is 404", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of ["viewer", "teamAdmin"] as const) {
          const self = yield* raw("GET", `/v1/members/${result.ids.people[kind]}`, { token: tokens[kind] })
          expect(self.status).toBe(200)
          expect(self.json.id).toBe(result.ids.people[kind])
          for (const key of adminOnlyFields) expect(key in self.json, key).toBe(false)
        }
        // The team admin's own team member, and the owner, are out of reach.
        for (const id of [result.ids.people.rex, result.ids.people.owner, result.ids.people.viewer]) {
          expectError(yield* raw("GET", `/v1/members/${id}`, { token: tokens.teamAdmin }), 404, "NOT_FOUND")
        }
        expectError(yield* raw("GET", `/v1/members/${result.ids.people.owner}`, { token: tokens.viewer }), 404, "NOT_FOUND")
      }))

    it.effect("an external account gets 403, even for themself", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const id of [result.ids.people.external, result.ids.people.owner]) {
          expectError(yield* raw("GET", `/v1/members/${id}`, { token: tokens.external }), 403, "FORBIDDEN")
        }
      }))

    it.effect("another organization's id, an unknown id: 404 for an admin; another org's admin gets 404 for ours", () =>
      Effect.gen(function*() {
        const { other, result, tokens } = yield* setup
        for (const id of [other.ids.people.otherOrgAdmin, "usr_doesnotexist", "%20"]) {
          expectError(yield* raw("GET", `/v1/members/${id}`, { token: tokens.owner }), 404, "NOT_FOUND", id)
        }
        expectError(yield* raw("GET", `/v1/members/${result.ids.people.owner}`, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND")
      }))
  })

  describe("GET /v1/invitations", () => {
    it.effect("organization admins list pending invitations newest first, expired marked, no id, no total", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of ["owner", "admin", "billingAdmin"] as const) {
          const response = yield* raw("GET", "/v1/invitations", { token: tokens[kind] })
          expect(response.json).toEqual({
            data: [
              { name: "Ida Newest", email: "ida@x.test", phone: null, role: "viewer", expiresAt: "2099-01-01T00:00:00.000Z", expired: false },
              { name: "Ian Newer", email: "ian@x.test", phone: "+15550200", role: "admin", expiresAt: "2099-01-01T00:00:00.000Z", expired: false },
              { name: "Ivy Old", email: "ivy@x.test", phone: null, role: "viewer", expiresAt: "2026-01-15T00:00:00.000Z", expired: true }
            ],
            nextCursor: null
          })
        }
      }))

    it.effect("pages of 1 walk them in order; a tampered or foreign cursor is 400", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const { pages, rows } = yield* walk("/v1/invitations", tokens.owner, 1)
        expect(rows.map((row) => row.name)).toEqual(["Ida Newest", "Ian Newer", "Ivy Old"])
        expect(pages).toBe(3)
        const first = yield* raw("GET", "/v1/invitations?limit=1", { token: tokens.owner })
        const members = yield* raw("GET", "/v1/members?limit=1", { token: tokens.owner })
        for (const cursor of [tamperCursor(first.json.nextCursor), members.json.nextCursor]) {
          expectError(yield* raw("GET", `/v1/invitations?cursor=${encodeURIComponent(cursor)}`, { token: tokens.owner }), 400, "INVALID_CURSOR")
        }
        expectError(
          yield* raw("GET", `/v1/invitations?cursor=${encodeURIComponent(first.json.nextCursor)}`, { token: tokens.otherOrgAdmin }),
          400,
          "INVALID_CURSOR"
        )
      }))

    it.effect("viewer, team admin and external get 403; another organization's admin sees none of ours", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of ["viewer", "teamAdmin", "external"] as const) {
          expectError(yield* raw("GET", "/v1/invitations", { token: tokens[kind] }), 403, "FORBIDDEN", kind)
        }
        const page = yield* (yield* clientFor(tokens.otherOrgAdmin)).members.invitations({ urlParams: {} })
        expect(page).toEqual({ data: [], nextCursor: null })
      }))
  })

  describe("GET /v1/reporting-lines", () => {
    it.effect("organization admins list reporting lines by name with total; status and noManager filter", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of ["owner", "admin", "billingAdmin"] as const) {
          const client = yield* clientFor(tokens[kind])
          const page = yield* client.members.reportingLines({ urlParams: {} })
          expect(page.data.map((row) => row.name)).toEqual(activeNames)
          expect(page.total).toBe(activeNames.length)
          expect(page.data.find((row) => row.name === "Rex Reports")).toEqual({
            id: result.ids.people.rex,
            name: "Rex Reports",
            status: "ACTIVE",
            reportsTo: { id: result.ids.people.dora, name: "Dora Departed", status: "DEACTIVATED" }
          })
          expect(page.data.find((row) => row.name === "Nina Offbook")?.reportsTo).toEqual({ id: null, name: null, status: null })
        }
        const client = yield* clientFor(tokens.admin)
        const gone = yield* client.members.reportingLines({ urlParams: { status: "deactivated" } })
        expect(gone).toEqual({
          data: [{ id: result.ids.people.dora, name: "Dora Departed", status: "DEACTIVATED", reportsTo: null }],
          nextCursor: null,
          total: 1
        })
        const noManager = yield* client.members.reportingLines({ urlParams: { noManager: true, status: "all" } })
        expect(noManager.total).toBe(activeNames.length + 1 - 2)
        expect(noManager.data.every((row) => row.reportsTo === null)).toBe(true)
      }))

    it.effect("pages of 2 walk every line once, in order, total constant; a tampered cursor is 400", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const { rows, totals } = yield* walk("/v1/reporting-lines?status=all", tokens.admin, 2)
        expect(rows.map((row) => row.name)).toEqual([...activeNames.slice(0, 3), "Dora Departed", ...activeNames.slice(3)])
        expect([...totals]).toEqual([activeNames.length + 1])
        const first = yield* raw("GET", "/v1/reporting-lines?limit=1", { token: tokens.admin })
        for (const path of [
          `/v1/reporting-lines?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`,
          `/v1/reporting-lines?noManager=true&cursor=${encodeURIComponent(first.json.nextCursor)}`,
          `/v1/members?cursor=${encodeURIComponent(first.json.nextCursor)}`
        ]) {
          expectError(yield* raw("GET", path, { token: tokens.admin }), 400, "INVALID_CURSOR", path)
        }
      }))

    it.effect("viewer, team admin and external get 403; another organization's admin sees only their own people", () =>
      Effect.gen(function*() {
        const { other, tokens } = yield* setup
        for (const kind of ["viewer", "teamAdmin", "external"] as const) {
          expectError(yield* raw("GET", "/v1/reporting-lines", { token: tokens[kind] }), 403, "FORBIDDEN", kind)
        }
        const page = yield* (yield* clientFor(tokens.otherOrgAdmin)).members.reportingLines({ urlParams: {} })
        expect(page).toEqual({
          data: [{ id: other.ids.people.otherOrgAdmin, name: "Otto Other", status: "ACTIVE", reportsTo: null }],
          nextCursor: null,
          total: 1
        })
      }))
  })

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body on every members endpoint", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const path of ["/v1/members", `/v1/members/${result.ids.people.owner}`, "/v1/invitations", "/v1/reporting-lines"]) {
        for (const kind of badTokens) expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${path} ${kind}`)
      }
    }))
})
