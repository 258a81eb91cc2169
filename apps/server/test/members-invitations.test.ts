import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, badTokens } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's three pending invitations; ordering ties and cursor binding are core's (members-admin-lists.test.ts). */
const setup = acmeCallerMatrix

layer(TestServerLive, { excludeTestServices: true })("GET /v1/invitations", (it) => {
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

  it.effect("pages of 1 walk them in order; a tampered cursor is 400", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      const { pages, rows } = yield* walkPages("/v1/invitations", tokens.owner, 1)
      expect(rows.map((row) => row.name)).toEqual(["Ida Newest", "Ian Newer", "Ivy Old"])
      expect(pages).toBe(3)
      const first = yield* raw("GET", "/v1/invitations?limit=1", { token: tokens.owner })
      const path = `/v1/invitations?cursor=${encodeURIComponent(tamperCursor(first.json.nextCursor))}`
      expectError(yield* raw("GET", path, { token: tokens.owner }), 400, "INVALID_CURSOR")
    }))

  it.effect("viewer, team admin and external get 403; another organization's admin sees only their own", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of ["viewer", "teamAdmin", "external"] as const) {
        expectError(yield* raw("GET", "/v1/invitations", { token: tokens[kind] }), 403, "FORBIDDEN", kind)
      }
      const page = yield* (yield* clientFor(tokens.otherOrgAdmin)).members.invitations({ urlParams: {} })
      expect(page.data.map((row) => row.name)).toEqual(["Oscar Otherorg"])
    }))

  it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `/v1/invitations?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* raw("GET", "/v1/invitations", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
    }))
})
