import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

const fixture: OrgFixtureInput = {
  organization: { name: "Me Org", plan: "pro" },
  people: [
    { key: "scoped", name: "Sam Scoped", email: "sam@me.test", role: "admin", tokenScopes: ["training:assign", "content:write"] },
    { key: "narrator", name: "Nora Narrator", email: "nora@me.test", role: "viewer", tokenScopes: ["narration:synthesize"] },
    { key: "gone", name: "Gina Gone", email: "gina@me.test", role: "admin", status: "DEACTIVATED", tokenScopes: [] }
  ],
  teams: [{ key: "alpha", name: "alpha squad", members: [{ person: "teamAdmin", role: "team-viewer" }, { person: "scoped" }] }]
}

const setup = callerMatrixOnce(fixture)

layer(TestServerLive, { excludeTestServices: true })("GET /v1/me", (it) => {
  describe("each caller kind sees themself", () => {
    it.effect("owner, admin and billing admin: their person, organization and role, no teams, no scopes", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const people = [
          ["owner", "Olivia Owner", "olivia@matrix.test", "owner"],
          ["admin", "Adam Admin", "adam@matrix.test", "admin"],
          ["billingAdmin", "Bella Billing", "bella@matrix.test", "billing-admin"]
        ] as const
        for (const [key, name, email, role] of people) {
          const client = yield* clientFor(tokens[key])
          expect(yield* client.me.get()).toEqual({
            id: result.ids.people[key],
            name,
            email,
            organization: { id: result.organizationId, name: "Me Org" },
            role,
            teams: [],
            scopes: []
          })
        }
      }))

    it.effect("viewer: role viewer with their team membership as team-viewer", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const me = yield* (yield* clientFor(tokens.viewer)).me.get()
        expect(me).toEqual({
          id: result.ids.people.viewer,
          name: "Victor Viewer",
          email: "victor@matrix.test",
          organization: { id: result.organizationId, name: "Me Org" },
          role: "viewer",
          teams: [{ id: result.ids.teams.matrixTeam, name: "Matrix Team", role: "team-viewer" }],
          scopes: []
        })
      }))

    it.effect("team admin: org role viewer, teams by name with the team role held on each", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const me = yield* (yield* clientFor(tokens.teamAdmin)).me.get()
        expect(me.role).toBe("viewer")
        expect(me.teams).toEqual([
          { id: result.ids.teams.alpha, name: "alpha squad", role: "team-viewer" },
          { id: result.ids.teams.matrixTeam, name: "Matrix Team", role: "team-admin" }
        ])
      }))

    it.effect("external: role external, on no team", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const me = yield* (yield* clientFor(tokens.external)).me.get()
        expect(me).toMatchObject({ id: result.ids.people.external, role: "external", teams: [], scopes: [] })
      }))

    it.effect("another organization's admin sees their own organization, nothing of this one", () =>
      Effect.gen(function*() {
        const { other, tokens } = yield* setup
        const me = yield* (yield* clientFor(tokens.otherOrgAdmin)).me.get()
        expect(me).toEqual({
          id: other.ids.people.otherOrgAdmin,
          name: "Otto Other",
          email: "otto@other.test",
          organization: { id: other.organizationId, name: "Other Org" },
          role: "admin",
          teams: [],
          scopes: []
        })
      }))
  })

  describe("scopes are those granted to this token", () => {
    it.effect("an admin's token with training:assign and content:write reports exactly those", () =>
      Effect.gen(function*() {
        const { result } = yield* setup
        const me = yield* (yield* clientFor(result.tokens.scoped)).me.get()
        expect([...me.scopes].sort()).toEqual(["content:write", "training:assign"])
        expect(me.teams).toEqual([{ id: result.ids.teams.alpha, name: "alpha squad", role: "team-viewer" }])
      }))

    it.effect("a viewer's narration-only token reports narration:synthesize only", () =>
      Effect.gen(function*() {
        const { result } = yield* setup
        const me = yield* (yield* clientFor(result.tokens.narrator)).me.get()
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
        const response = yield* raw("GET", "/v1/me", { token: result.tokens.gone })
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
