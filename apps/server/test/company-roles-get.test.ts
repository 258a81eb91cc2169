import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CompanyRoleId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Acme's Engineer role; what a curriculum leaves out for whom is core's (company-roles-get.test.ts). */
const setup = acmeCallerMatrix

const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

layer(TestServerLive, { excludeTestServices: true })("GET /v1/company-roles/{id}", (it) => {
  it.effect("organization admins read the role with its live curriculum in position order and current holders by name", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of admins) {
        const response = yield* raw("GET", `/v1/company-roles/${result.ids.companyRoles.eng}`, { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json, kind).toEqual({
          id: result.ids.companyRoles.eng,
          name: "Engineer",
          description: "Builds and runs the platform",
          memberCount: 3,
          parentRoleId: null,
          createdAt: expect.stringMatching(isoMs),
          updatedAt: expect.stringMatching(isoMs),
          curriculum: [
            { type: "lesson", id: result.ids.lessons.onboarding, name: "Onboarding" },
            { type: "topic", id: result.ids.topics.deploy, name: "Deployments" },
            { type: "lesson", id: result.ids.lessons.incident, name: "Incident command" },
            { type: "topic", id: result.ids.topics.oncall, name: "On-call" },
            { type: "lesson", id: result.ids.lessons.drills, name: "Team drills" },
            { type: "topic", id: result.ids.topics.keys, name: "Key rotation" }
          ],
          members: [
            { id: result.ids.people.amy, name: "amy Holder" },
            { id: result.ids.people.ella, name: "Ella External" },
            { id: result.ids.people.victor, name: "Victor Viewer" }
          ]
        })
      }
    }))

  it.effect("viewers and team admins see only the curriculum entries they can read", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of ["viewer", "teamAdmin"] as const) {
        const role = yield* (yield* clientFor(tokens[kind])).companyRoles.get({ path: { id: CompanyRoleId.make(result.ids.companyRoles.eng!) } })
        expect(role.curriculum.map((entry) => entry.name), kind).toEqual(["Onboarding", "Deployments", "On-call", "Team drills"])
      }
    }))

  it.effect("404 with a JSON body for an external account, another organization's admin and an unknown id", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const path = `/v1/company-roles/${result.ids.companyRoles.eng}`
      expectError(yield* raw("GET", path, { token: tokens.external }), 404, "NOT_FOUND", "external")
      expectError(yield* raw("GET", path, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", "other org")
      expectError(yield* raw("GET", "/v1/company-roles/rol_unknown", { token: tokens.admin }), 404, "NOT_FOUND", "unknown")
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", `/v1/company-roles/${result.ids.companyRoles.eng}`, { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
