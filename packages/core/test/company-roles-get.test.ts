import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { CompanyRoleId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { CompanyRoles } from "../src/company-roles/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, CompanyRoles.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const get = (org: Imported, key: string, roleId: CompanyRoleId) =>
  CompanyRoles.pipe(Effect.flatMap((roles) => roles.get(org.access(key, policies.companyRoles.get), roleId)))
const curriculumOf = (org: Imported, key: string, roleId: CompanyRoleId) =>
  get(org, key, roleId).pipe(Effect.map((role) => role.curriculum.map((entry) => entry.name)))

layer(TestLayer)("GET /v1/company-roles/{id}", (it) => {
  it.effect("an organization admin reads the role, its whole live curriculum in position order and its current holders by name", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const role = yield* get(acme, "bella", acme.roleId("eng"))
      expect(role).toMatchObject({ id: acme.roleId("eng"), name: "Engineer", memberCount: 3, parentRoleId: null })
      expect(role.curriculum).toEqual([
        { type: "lesson", id: acme.ids.lessons.onboarding, name: "Onboarding" },
        { type: "topic", id: acme.ids.topics.deploy, name: "Deployments" },
        { type: "lesson", id: acme.ids.lessons.incident, name: "Incident command" },
        { type: "topic", id: acme.ids.topics.oncall, name: "On-call" },
        // archivedTopic (archived) and legacyTopic (archived space) are out of the live graph
        { type: "lesson", id: acme.ids.lessons.drills, name: "Team drills" },
        { type: "topic", id: acme.ids.topics.keys, name: "Key rotation" }
      ])
      // Current holders: not Dora (deactivated) nor Ed (ended).
      expect(role.members).toEqual([
        { id: acme.userId("amy"), name: "amy Holder" },
        { id: acme.userId("ella"), name: "Ella External" },
        { id: acme.userId("victor"), name: "Victor Viewer" }
      ])
    }))

  it.effect("a viewer's curriculum leaves out what they cannot read; team visibility reaches team members", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // Victor is on Ops, which Team Runbooks and Team drills are shared with; Liam is on no team.
      expect(yield* curriculumOf(acme, "victor", acme.roleId("eng"))).toEqual(["Onboarding", "Deployments", "On-call", "Team drills"])
      expect(yield* curriculumOf(acme, "liam", acme.roleId("eng"))).toEqual(["Onboarding", "Deployments"])
      expect((yield* get(acme, "liam", acme.roleId("eng"))).members).toHaveLength(3)
    }))

  it.effect("a role without curriculum or holders has empty arrays", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const role = yield* get(acme, "victor", acme.roleId("idle"))
      expect(role.curriculum).toEqual([])
      expect(role.members).toEqual([])
      expect(role.memberCount).toBe(0)
    }))

  it.effect("404 for another organization's role, for ours read from another organization, and for an unknown id", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      for (
        const attempt of [
          get(acme, "adam", other.roleId("otherRole")),
          get(other, "otto", acme.roleId("eng")),
          get(acme, "adam", CompanyRoleId.make("rol_doesnotexist")),
          get(acme, "adam", CompanyRoleId.make("not even an id'; --"))
        ]
      ) {
        expect((yield* Effect.flip(attempt))._tag).toBe("NotFound")
      }
    }))
})
