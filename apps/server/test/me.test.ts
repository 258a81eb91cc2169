import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, badTokens } from "./support/callers.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's callers; Sue and Nora hold scoped tokens, Gus has left. */
const setup = acmeCallerMatrix

layer(TestServerLive, { excludeTestServices: true })("GET /v1/me", (it) => {
  describe("each caller kind sees themself", () => {
    it.effect("owner, admin and billing admin: their person, organization, role and teams, no scopes", () =>
      Effect.gen(function*() {
        const { result, tokens, userIds } = yield* setup
        const people = [
          ["owner", "Olivia Owner", "olivia@acme.test", "owner"],
          ["admin", "adam Admin", "adam@acme.test", "admin"],
          ["billingAdmin", "Bella Billing", "bella@acme.test", "billing-admin"]
        ] as const
        for (const [kind, name, email, role] of people) {
          const client = yield* clientFor(tokens[kind])
          expect(yield* client.me.get()).toEqual({
            id: userIds[kind],
            name,
            email,
            organization: { id: result.organizationId, name: "Acme" },
            role,
            // Olivia also administers the night shift team.
            teams: kind === "owner" ? [{ id: result.ids.teams.nightShift, name: "night shift", role: "team-admin" }] : [],
            scopes: []
          })
        }
      }))

    it.effect("viewer: role viewer with their team memberships as team-viewer", () =>
      Effect.gen(function*() {
        const { result, tokens, userIds } = yield* setup
        const me = yield* (yield* clientFor(tokens.viewer)).me.get()
        expect(me).toEqual({
          id: userIds.viewer,
          name: "Victor Viewer",
          email: "victor@acme.test",
          organization: { id: result.organizationId, name: "Acme" },
          role: "viewer",
          teams: [
            { id: result.ids.teams.alpha, name: "Alpha", role: "team-viewer" },
            { id: result.ids.teams.ops, name: "Ops", role: "team-viewer" }
          ],
          scopes: []
        })
      }))

    it.effect("team admin: org role viewer, teams by name with the team role held on each", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const me = yield* (yield* clientFor(tokens.teamAdmin)).me.get()
        expect(me.role).toBe("viewer")
        expect(me.teams).toEqual([
          { id: result.ids.teams.alpha, name: "Alpha", role: "team-viewer" },
          { id: result.ids.teams.ops, name: "Ops", role: "team-admin" }
        ])
      }))

    it.effect("external: role external, on no team", () =>
      Effect.gen(function*() {
        const { tokens, userIds } = yield* setup
        const me = yield* (yield* clientFor(tokens.external)).me.get()
        expect(me).toMatchObject({ id: userIds.external, role: "external", teams: [], scopes: [] })
      }))

    it.effect("another organization's admin sees their own organization, nothing of this one", () =>
      Effect.gen(function*() {
        const { other, tokens } = yield* setup
        const me = yield* (yield* clientFor(tokens.otherOrgAdmin)).me.get()
        expect(me).toEqual({
          id: other.ids.people.otto,
          name: "Otto Other",
          email: "otto@other.test",
          organization: { id: other.organizationId, name: "Other" },
          role: "admin",
          teams: [{ id: other.ids.teams.otherTeam, name: "Other Team", role: "team-viewer" }],
          scopes: []
        })
      }))
  })

  describe("scopes are those granted to this token", () => {
    it.effect("an admin's token with training:assign and content:write reports exactly those", () =>
      Effect.gen(function*() {
        const { result } = yield* setup
        const me = yield* (yield* clientFor(result.tokens.sue)).me.get()
        expect([...me.scopes].sort()).toEqual(["content:write", "training:assign"])
        expect(me).toMatchObject({ name: "Sue Scoped", role: "admin", teams: [] })
      }))

    it.effect("a viewer's narration-only token reports narration:synthesize only", () =>
      Effect.gen(function*() {
        const { result } = yield* setup
        const me = yield* (yield* clientFor(result.tokens.nora)).me.get()
        expect(me.scopes).toEqual(["narration:synthesize"])
      }))
  })

  describe("401 with a JSON body", () => {
    it.effect("no token, a made-up token, an expired and a revoked token", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of badTokens) {
          const response = yield* raw("GET", "/v1/me", { token: tokens[kind] })
          expect(response.status, kind).toBe(401)
          expect(response.headers.get("content-type"), kind).toContain("application/json")
          expect(response.json, kind).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
        }
      }))

    it.effect("a deactivated person's token is refused", () =>
      Effect.gen(function*() {
        const { result } = yield* setup
        const response = yield* raw("GET", "/v1/me", { token: result.tokens.gus })
        expect(response.status).toBe(401)
        expect(response.json).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
      }))

    it.effect("a malformed Authorization header (not Bearer) is refused", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const response = yield* raw("GET", "/v1/me", { headers: { authorization: `Basic ${tokens.admin}` } })
        expect(response.status).toBe(401)
        expect(response.json).toMatchObject({ code: "UNAUTHORIZED", message: expect.any(String) })
      }))
  })
})
