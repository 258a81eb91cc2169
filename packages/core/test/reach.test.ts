import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import type { Access } from "@tks/domain/policy"
import type { OrgRole, Scope } from "@tks/domain/roles"
import { withinReach } from "../src/common/reach.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { importedOnce } from "./support/access.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const person = (
  key: string,
  role: OrgRole,
  extra: { manager?: string; status?: "DEACTIVATED"; deactivatedAt?: string; tokenScopes?: Array<Scope> } = {}
) => ({ key, name: `${key} person`, email: `${key}@reach.test`, role, tokenScopes: [], ...extra })

/** gina manages mike, who manages lena, pete and dora (who left); tara administers the ops team (lena and tara). */
const setup = importedOnce({
  reach: {
    organization: { name: "Reach Co" },
    people: [
      person("owner", "owner"),
      person("gina", "viewer"),
      person("mike", "viewer", { manager: "gina" }),
      person("lena", "viewer", { manager: "mike" }),
      person("pete", "viewer", { manager: "mike" }),
      person("dora", "viewer", { manager: "mike", status: "DEACTIVATED", deactivatedAt: "2026-02-01T00:00:00.000Z" }),
      person("tara", "viewer", { tokenScopes: ["training:assign"] }),
      person("victor", "viewer")
    ],
    teams: [{ key: "ops", name: "Ops", members: [{ person: "lena" }, { person: "tara", role: "team-admin" }] }]
  }
})

/** The keys of the people of Reach Co within `access`'s reach. */
const reached = (access: Access) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { reach } = yield* setup
    const rows = yield* sql<{ id: string }>`
      SELECT u.id FROM users u WHERE u.org_id = ${reach.organizationId} AND ${withinReach(sql, access, "u")}`
    const keyOf = new Map(Object.entries(reach.ids.people).map(([key, id]) => [id, key]))
    return rows.map((row) => keyOf.get(row.id)).sort()
  })

layer(TestLayer)("which people a reach covers (common/reach.ts)", (it) => {
  it.effect("organization: everyone of the organization, people who left included", () =>
    Effect.gen(function*() {
      const { reach } = yield* setup
      expect(yield* reached(reach.access("owner", policies.training.learningQueue))).toEqual(
        ["dora", "gina", "lena", "mike", "owner", "pete", "tara", "victor"]
      )
    }))

  it.effect("reports: the caller and everyone below them on the reporting line, at any depth", () =>
    Effect.gen(function*() {
      const { reach } = yield* setup
      const access = (key: string) => reach.access(key, policies.training.learningQueue)
      expect(access("gina").reach).toBe("reports")
      expect(yield* reached(access("gina"))).toEqual(["dora", "gina", "lena", "mike", "pete"])
      expect(yield* reached(access("mike"))).toEqual(["dora", "lena", "mike", "pete"])
      expect(yield* reached(access("lena"))).toEqual(["lena"])
    }))

  it.effect("teams: the people on the teams the caller administers, themself included", () =>
    Effect.gen(function*() {
      const { reach } = yield* setup
      const access = reach.access("tara", policies.assigning.assign)
      expect(access.reach).toBe("teams")
      expect(yield* reached(access)).toEqual(["lena", "tara"])
    }))

  it.effect("self, and readable (a reach over readable records): the caller only", () =>
    Effect.gen(function*() {
      const { reach } = yield* setup
      const self = reach.access("victor", policies.training.progress)
      const readable = reach.access("victor", policies.issues.list)
      expect([self.reach, readable.reach]).toEqual(["self", "readable"])
      expect(yield* reached(self)).toEqual(["victor"])
      expect(yield* reached(readable)).toEqual(["victor"])
    }))
})
