import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { UserId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's people; who reaches whom is core's rule (packages/core/test/members-get.test.ts), the caller matrix is here. */
const setup = acmeCallerMatrix

const adminOnlyFields = ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]

layer(TestServerLive, { excludeTestServices: true })("GET /v1/members/{id}", (it) => {
  it.effect("organization admins open anyone with a record, at any status", () =>
    Effect.gen(function*() {
      const { result, tokens, userIds } = yield* setup
      for (const kind of ["owner", "admin", "billingAdmin"] as const) {
        const client = yield* clientFor(tokens[kind])
        const dora = yield* client.members.get({ path: { id: UserId.make(result.ids.people.dora!) } })
        expect(dora).toMatchObject({ name: "Dora Departed", status: "DEACTIVATED", reportsTo: null, teams: [{ name: "Ops" }] })
        const viewer = yield* client.members.get({ path: { id: UserId.make(userIds.viewer) } })
        expect(viewer.teams).toEqual([
          { id: result.ids.teams.alpha, name: "Alpha", role: "team-viewer" },
          { id: result.ids.teams.ops, name: "Ops", role: "team-viewer" }
        ])
      }
    }))

  it.effect("a viewer or team admin opens themself without the admin-only keys; anyone else is 404", () =>
    Effect.gen(function*() {
      const { result, tokens, userIds } = yield* setup
      for (const kind of ["viewer", "teamAdmin"] as const) {
        const self = yield* raw("GET", `/v1/members/${userIds[kind]}`, { token: tokens[kind] })
        expect(self.status).toBe(200)
        expect(self.json.id).toBe(userIds[kind])
        for (const key of adminOnlyFields) expect(key in self.json, key).toBe(false)
      }
      // The team admin's own team members, and the owner, are out of reach.
      for (const id of [result.ids.people.rex, userIds.owner, userIds.viewer]) {
        expectError(yield* raw("GET", `/v1/members/${id}`, { token: tokens.teamAdmin }), 404, "NOT_FOUND")
      }
      expectError(yield* raw("GET", `/v1/members/${userIds.owner}`, { token: tokens.viewer }), 404, "NOT_FOUND")
    }))

  it.effect("an external account gets 403, even for themself", () =>
    Effect.gen(function*() {
      const { tokens, userIds } = yield* setup
      for (const id of [userIds.external, userIds.owner]) {
        expectError(yield* raw("GET", `/v1/members/${id}`, { token: tokens.external }), 403, "FORBIDDEN")
      }
    }))

  it.effect("an unknown or blank id is 404 with a JSON body; another organization's admin gets 404 for ours", () =>
    Effect.gen(function*() {
      const { tokens, userIds } = yield* setup
      for (const id of ["usr_doesnotexist", "%20"]) {
        expectError(yield* raw("GET", `/v1/members/${id}`, { token: tokens.owner }), 404, "NOT_FOUND", id)
      }
      expectError(yield* raw("GET", `/v1/members/${userIds.owner}`, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND")
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens, userIds } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", `/v1/members/${userIds.owner}`, { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
