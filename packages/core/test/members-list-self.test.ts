import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { MemberListParams } from "@tks/domain/member"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { Members } from "../src/members/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

/** GET /v1/members as acme's `key`, who reaches only themself (members.list is admins-else-self). */
const listAs = (key: string, params: MemberListParams = {}) =>
  Effect.gen(function*() {
    const { acme } = yield* setup
    return yield* (yield* Members).list(acme.access(key, policies.members.list), params)
  })

const adminOnlyFields = ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]

layer(TestLayer)("members listing, self reach", (it) => {
  it.effect("a viewer listing members sees only their own row, without the admin-only fields", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* listAs("victor")
      expect(page.total).toBe(1)
      expect(page.nextCursor).toBeNull()
      expect(page.data).toEqual([{
        id: acme.userId("victor"),
        name: "Victor Viewer",
        email: "victor@acme.test",
        status: "ACTIVE",
        signedUp: true,
        role: "viewer",
        companyRoles: [
          { id: acme.roleId("driver"), name: "Driver" },
          { id: acme.roleId("eng"), name: "Engineer" },
          { id: acme.roleId("lead"), name: "Warehouse Lead" }
        ],
        teams: [
          { id: acme.teamId("alpha"), name: "Alpha", role: "team-viewer" },
          { id: acme.teamId("ops"), name: "Ops", role: "team-viewer" }
        ]
      }])
      for (const key of adminOnlyFields) expect(key in page.data[0]!).toBe(false)
    }))

  it.effect("a team admin sees only their own row too, even filtered by the team they administer", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* listAs("tara", { teamId: acme.teamId("ops") })
      expect(page.data.map((row) => row.id)).toEqual([acme.userId("tara")])
      expect(page.total).toBe(1)
    }))

  it.effect("their own row appears only when it matches the filters; total counts what they can see", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const none = { data: [], nextCursor: null, total: 0 }
      expect(yield* listAs("victor", { query: "percy" })).toEqual(none)
      expect(yield* listAs("victor", { status: "deactivated" })).toEqual(none)
      expect(yield* listAs("victor", { teamId: acme.teamId("empty") })).toEqual(none)
      expect((yield* listAs("victor", { query: "VIEWER", status: "all", teamId: acme.teamId("alpha") })).total).toBe(1)
    }))

  it.effect("a non-admin giving a team of another organization is 400 Unknown teamId", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      const error = yield* Effect.flip(listAs("victor", { teamId: other.teamId("otherTeam") }))
      expect(error).toMatchObject({ _tag: "BadRequest", message: "Unknown teamId" })
    }))

  it.effect("noManager given by a non-admin (viewer or team admin) is 403, true or false", () =>
    Effect.gen(function*() {
      for (const key of ["victor", "tara"]) {
        for (const noManager of [true, false]) {
          expect(yield* Effect.flip(listAs(key, { noManager }))).toMatchObject({
            _tag: "Forbidden",
            message: "Only organization admins may filter by noManager"
          })
        }
      }
    }))
})
