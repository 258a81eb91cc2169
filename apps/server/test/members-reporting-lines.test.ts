import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inNameOrder } from "@tks/core/testing/listing-order"
import { acmePeople } from "@tks/core/testing/organizations"
import { acmeCallerMatrix, badTokens } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's people; each line's manager and the filters' rules are core's (members-admin-lists.test.ts). */
const setup = acmeCallerMatrix

const active = acmePeople.filter((person) => person.status !== "DEACTIVATED")

layer(TestServerLive, { excludeTestServices: true })("GET /v1/reporting-lines", (it) => {
  it.effect("organization admins list reporting lines by name with total; status and noManager reach the listing", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of ["owner", "admin", "billingAdmin"] as const) {
        const client = yield* clientFor(tokens[kind])
        const page = yield* client.members.reportingLines({ urlParams: {} })
        expect(page.data.map((row) => row.name)).toEqual(inNameOrder(active, result.ids.people).map((p) => p.name))
        expect(page.total).toBe(active.length)
        expect(page.data.find((row) => row.name === "Rex Reports")).toEqual({
          id: result.ids.people.rex,
          name: "Rex Reports",
          status: "ACTIVE",
          reportsTo: { id: result.ids.people.dora, name: "Dora Departed", status: "DEACTIVATED" }
        })
      }
      const client = yield* clientFor(tokens.admin)
      const gone = yield* client.members.reportingLines({ urlParams: { status: "deactivated" } })
      expect(gone.data.map((row) => row.name)).toEqual(["Dora Departed", "Gus Gone"])
      expect(gone.total).toBe(2)
      const noManager = yield* client.members.reportingLines({ urlParams: { noManager: true, status: "all" } })
      expect(noManager.total).toBe(acmePeople.filter((person) => person.manager === undefined).length)
      expect(noManager.data.every((row) => row.reportsTo === null)).toBe(true)
    }))

  it.effect("pages of 2 walk every line once, in order, total constant; a tampered cursor or one of another endpoint is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const { rows, totals } = yield* walkPages("/v1/reporting-lines?status=all", tokens.admin, 2)
      expect(rows.map((row) => row.name)).toEqual(inNameOrder(acmePeople, result.ids.people).map((p) => p.name))
      expect([...totals]).toEqual([acmePeople.length])
      const first = yield* raw("GET", "/v1/reporting-lines?limit=1", { token: tokens.admin })
      for (const path of [
        `/v1/reporting-lines?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`,
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
        data: [
          { id: other.ids.people.otto, name: "Otto Other", status: "ACTIVE", reportsTo: null },
          { id: other.ids.people.pia, name: "Pia Provisioned", status: "ACTIVE", reportsTo: null }
        ],
        nextCursor: null,
        total: 2
      })
    }))

  it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `/v1/reporting-lines?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", "/v1/reporting-lines", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
