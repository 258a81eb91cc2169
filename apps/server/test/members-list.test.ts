import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { ImportResult } from "@tks/core/org-import/schema"
import { inNameOrder } from "@tks/core/testing/listing-order"
import { acmePeople } from "@tks/core/testing/organizations"
import { acmeCallerMatrix, badTokens } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's people, as listed; the listing rules themselves are core's (packages/core/test/members-list*.test.ts). */
const setup = acmeCallerMatrix

const active = acmePeople.filter((person) => person.status !== "DEACTIVATED")
const namesInOrder = (result: ImportResult, people: typeof acmePeople) => inNameOrder(people, result.ids.people).map((p) => p.name)
const adminOnlyFields = ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/members", (it) => {
  it.effect("owner, admin and billing admin list every active member by name, with total and the admin-only fields", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of ["owner", "admin", "billingAdmin"] as const) {
        const response = yield* raw("GET", "/v1/members", { token: tokens[kind] })
        expect(response.status).toBe(200)
        expect(response.json.data.map((row: any) => row.name)).toEqual(namesInOrder(result, active))
        expect(response.json.total).toBe(active.length)
        expect(response.json.nextCursor).toBeNull()
        for (const row of response.json.data) for (const key of adminOnlyFields) expect(key in row, key).toBe(true)
      }
    }))

  it.effect("the wire row: roles held now, teams, the admin-only fields and the manager, a departed one named as DEACTIVATED", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", "/v1/members?query=rex", { token: tokens.admin })
      expect(response.json).toEqual({
        data: [{
          id: result.ids.people.rex,
          name: "Rex Reports",
          email: "rex@acme.test",
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

  it.effect("status reaches the listing (deactivated); an unknown status is 400", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const gone = yield* raw("GET", "/v1/members?status=deactivated", { token: tokens.admin })
      expect(gone.json.data.map((row: any) => row.name)).toEqual(["Dora Departed", "Gus Gone"])
      expect(gone.json.total).toBe(2)
      expectError(yield* raw("GET", "/v1/members?status=gone", { token: tokens.admin }), 400, "VALIDATION_ERROR")
    }))

  it.effect("query reaches the listing, URL-encoded wildcards included", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const names = (query: string) =>
        raw("GET", `/v1/members?query=${encodeURIComponent(query)}`, { token: tokens.admin }).pipe(
          Effect.map((response) => response.json.data.map((row: any) => row.name))
        )
      expect(yield* names("REPORTS")).toEqual(["Rex Reports"])
      expect(yield* names("%")).toEqual(["Percy 100% Sure"])
    }))

  it.effect("teamId lists only that team's members; an unknown team is 400 Unknown teamId, for an admin and a viewer", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ops = yield* raw("GET", `/v1/members?teamId=${result.ids.teams.ops}`, { token: tokens.admin })
      expect(ops.json.data.map((row: any) => row.name)).toEqual(["Rex Reports", "Tara Teamadmin", "Victor Viewer"])
      expect(ops.json.total).toBe(3)
      for (const token of [tokens.admin, tokens.viewer]) {
        const response = yield* raw("GET", "/v1/members?teamId=tea_nope", { token })
        expect(response.status).toBe(400)
        expect(response.json).toEqual({ _tag: "BadRequest", code: "UNKNOWN_TEAM", message: "Unknown teamId", requestId: expect.any(String) })
      }
    }))

  it.effect("noManager=true lists only people with no manager of either kind; noManager=yes is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", "/v1/members?noManager=true", { token: tokens.billingAdmin })
      const expected = namesInOrder(result, active.filter((person) => person.manager === undefined))
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
      const { tokens, userIds } = yield* setup
      for (const kind of ["viewer", "teamAdmin"] as const) {
        const response = yield* raw("GET", "/v1/members?status=all", { token: tokens[kind] })
        expect(response.status).toBe(200)
        expect(response.json.total).toBe(1)
        expect(response.json.nextCursor).toBeNull()
        expect(response.json.data.map((row: any) => row.id)).toEqual([userIds[kind]])
        const row = response.json.data[0]
        expect(Object.keys(row).sort()).toEqual(["companyRoles", "email", "id", "name", "role", "signedUp", "status", "teams"])
        for (const key of adminOnlyFields) expect(key in row, key).toBe(false)
      }
    }))

  it.effect("an external account gets 403; another organization's admin sees only their own organization", () =>
    Effect.gen(function*() {
      const { other, tokens } = yield* setup
      expectError(yield* raw("GET", "/v1/members", { token: tokens.external }), 403, "FORBIDDEN")
      const page = yield* (yield* clientFor(tokens.otherOrgAdmin)).members.list({ urlParams: {} })
      expect(page.data.map((row) => row.id)).toEqual([other.ids.people.otto, other.ids.people.pia])
      expect(page.total).toBe(2)
    }))

  it.effect("pages of 2 walk every member once, in order, total constant; so do pages of 3 of a filtered listing", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const { pages, rows, totals } = yield* walkPages("/v1/members", tokens.admin, 2)
      expect(rows.map((row) => row.name)).toEqual(namesInOrder(result, active))
      expect([...totals]).toEqual([active.length])
      expect(pages).toBe(Math.ceil(active.length / 2))
      const filtered = yield* walkPages("/v1/members?status=all&query=e", tokens.owner, 3)
      const expected = yield* raw("GET", "/v1/members?status=all&query=e", { token: tokens.owner })
      expect(filtered.rows).toEqual(expected.json.data)
    }))

  it.effect("a tampered or made-up cursor, or one of another endpoint, is 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const first = yield* raw("GET", "/v1/members?limit=1", { token: tokens.admin })
      const lines = yield* raw("GET", "/v1/reporting-lines?limit=1", { token: tokens.admin })
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["tampered", `/v1/members?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`],
        ["made up", "/v1/members?cursor=nope"],
        ["reporting lines", `/v1/members?cursor=${encodeURIComponent(lines.json.nextCursor)}`]
      ]
      for (const [label, path] of cases) expectError(yield* raw("GET", path, { token: tokens.admin }), 400, "INVALID_CURSOR", label)
    }))

  it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `/v1/members?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", "/v1/members", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
