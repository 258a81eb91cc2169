import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's company roles; matching, wildcards and cursor binding are core's (company-roles-list.test.ts). */
const setup = acmeCallerMatrix

const readers: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"]
const allRoleNames = [
  "100% Sure_Thing",
  "Beta",
  "beta tester",
  "Clerk",
  "Driver",
  "Engineer",
  "Facilities Lead",
  "Idle",
  "Legacy Keeper",
  "Site Reliability",
  "Under Study",
  "Warehouse Lead"
]
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

layer(TestServerLive, { excludeTestServices: true })("GET /v1/company-roles", (it) => {
  it.effect("every org role but external (owner, admin, billing admin, viewer, team admin) lists every role by name", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of readers) {
        const page = yield* (yield* clientFor(tokens[kind])).companyRoles.list({ urlParams: {} })
        expect(page.data.map((role) => role.name), kind).toEqual(allRoleNames)
        expect(page.nextCursor, kind).toBeNull()
        expect(Object.keys(page), kind).toEqual(["data", "nextCursor"])
      }
    }))

  it.effect("a role's wire fields: memberCount counts active current holders, parentRoleId names the parent", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", "/v1/company-roles?query=engineer", { token: tokens.viewer })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({
        data: [{
          id: result.ids.companyRoles.eng,
          name: "Engineer",
          description: "Builds and runs the platform",
          memberCount: 3,
          parentRoleId: null,
          createdAt: expect.stringMatching(isoMs),
          updatedAt: expect.stringMatching(isoMs)
        }],
        nextCursor: null
      })
      const sre = yield* raw("GET", "/v1/company-roles?query=RELIABILITY", { token: tokens.viewer })
      expect(sre.json.data[0]).toMatchObject({ name: "Site Reliability", parentRoleId: result.ids.companyRoles.eng, memberCount: 1, description: null })
    }))

  it.effect("query reaches the listing, a URL-encoded wildcard included", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const namesFor = (query: string) =>
        raw("GET", `/v1/company-roles?query=${encodeURIComponent(query)}`, { token: tokens.viewer }).pipe(
          Effect.map((response) => response.json.data.map((role: { name: string }) => role.name))
        )
      expect(yield* namesFor("BETA")).toEqual(["Beta", "beta tester"])
      expect(yield* namesFor("%")).toEqual(["100% Sure_Thing"])
    }))

  it.effect("an external account gets 403 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      expectError(yield* raw("GET", "/v1/company-roles", { token: tokens.external }), 403, "FORBIDDEN", "external")
    }))

  it.effect("another organization's admin lists only their own organization's roles", () =>
    Effect.gen(function*() {
      const { other, tokens } = yield* setup
      const page = yield* (yield* clientFor(tokens.otherOrgAdmin)).companyRoles.list({ urlParams: {} })
      expect(page.data.map((role) => role.id)).toEqual([other.ids.companyRoles.otherRole])
    }))

  it.effect("pages of 5 walk every role once, in order, ending with nextCursor null", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const client = yield* clientFor(tokens.viewer)
      const names: Array<string> = []
      let cursor: string | undefined = undefined
      let pages = 0
      do {
        const page: { data: ReadonlyArray<{ name: string }>; nextCursor: string | null } = yield* client.companyRoles.list({
          urlParams: { limit: 5, ...(cursor === undefined ? {} : { cursor }) }
        })
        names.push(...page.data.map((role) => role.name))
        cursor = page.nextCursor ?? undefined
        pages++
      } while (cursor !== undefined && pages < 20)
      expect(names).toEqual(allRoleNames)
      expect(pages).toBe(Math.ceil(allRoleNames.length / 5))
    }))

  it.effect("a tampered or made-up cursor is 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const first = yield* (yield* clientFor(tokens.admin)).companyRoles.list({ urlParams: { limit: 1 } })
      for (const [label, cursor] of [["tampered", tamperCursor(first.nextCursor!)], ["made up", "not-a-cursor"]] as const) {
        expectError(yield* raw("GET", `/v1/company-roles?cursor=${encodeURIComponent(cursor)}`, { token: tokens.admin }), 400, "INVALID_CURSOR", label)
      }
    }))

  it.effect("limit 0, 101, abc and 1.5 are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc", "1.5"]) {
        expectError(yield* raw("GET", `/v1/company-roles?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", "/v1/company-roles", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
