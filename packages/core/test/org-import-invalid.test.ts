import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { demoFixture } from "../src/demo/fixture.js"
import { decodeFixture } from "../src/org-import/decode.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { planImport } from "../src/org-import/plan.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * Every import in this file fails, on a database of its own: after each one
 * there must be no organization at all, i.e. nothing was half-written.
 */
const failure = (input: unknown) =>
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const sql = yield* SqlClient.SqlClient
    const outcome = yield* Effect.either(importer.importOrganization(input))
    const orgs = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`
    expect(orgs[0]?.n).toBe(0)
    const users = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM users`
    expect(users[0]?.n).toBe(0)
    if (Either.isRight(outcome)) throw new Error("the import was expected to fail")
    return outcome.left
  })

const invalid = (input: unknown) =>
  failure(input).pipe(
    Effect.map((error) => {
      if (error._tag !== "FixtureInvalid") throw new Error(`expected FixtureInvalid, got ${error._tag}`)
      return error
    })
  )

const base: OrgFixtureInput = {
  organization: { name: "Broken Co" },
  people: [
    { key: "a", name: "Ann", email: "ann@broken.example", role: "owner" },
    { key: "b", name: "Bob", email: "bob@broken.example", role: "viewer", manager: "a" }
  ],
  companyRoles: [
    { key: "r1", name: "Role one", tiers: [{ key: "t1", label: "Junior" }, { key: "t2", label: "Senior" }], members: [{ person: "b", tier: "t1" }] },
    { key: "r2", name: "Role two", tiers: [{ key: "t3", label: "Only" }] }
  ],
  teams: [{ key: "team", name: "Team", members: [{ person: "a", role: "team-admin" }] }],
  spaces: [{ key: "s", category: "operations", name: "Space", topics: [{ key: "x", name: "Topic", items: [{ key: "i", name: "Item", kind: "fact" }] }] }]
}

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const withPeople = (people: OrgFixtureInput["people"]): OrgFixtureInput => ({ ...base, people })

layer(TestLayer)("invalid fixtures", (it) => {
  it.effect("the base fixture of this file is valid on its own (planned, not written)", () =>
    Effect.sync(() => {
      const decoded = decodeFixture(base)
      expect(decoded.problems).toEqual([])
      expect(Either.isRight(planImport(decoded, new Date()))).toBe(true)
    }))

  describe("format errors name the path", () => {
    it.effect("a bad enum value", () =>
      Effect.gen(function*() {
        const error = yield* invalid(withPeople([{ key: "a", name: "Ann", email: "ann@broken.example", role: "boss" as "owner" }]))
        expect(error.problems.some((line) => line.startsWith("people[0].role: "))).toBe(true)
        expect(error.message).toContain("people[0].role")
        expect(error.message).toContain("boss")
      }))

    it.effect("a field that is not part of the format", () =>
      Effect.gen(function*() {
        const error = yield* invalid({ ...base, people: [{ key: "a", name: "Ann", email: "ann@broken.example", role: "owner", tokenScope: [] }] })
        expect(error.problems.some((line) => line.startsWith("people[0].tokenScope: "))).toBe(true)
      }))

    it.effect("not an object at all", () =>
      Effect.gen(function*() {
        const error = yield* invalid([1, 2, 3])
        expect(error.problems).toHaveLength(1)
      }))
  })

  describe("reference and rule errors name the path", () => {
    it.effect("an unknown key reference", () =>
      Effect.gen(function*() {
        const error = yield* invalid({
          ...base,
          duties: [
            { holder: { role: "r1" }, raci: "RESPONSIBLE", entity: { topic: "x" } },
            { holder: { team: "team" }, raci: "INFORMED", entity: { topic: "nope" } }
          ]
        })
        expect(error.problems).toEqual([`duties[1].entity.topic: unknown topic key "nope"`])
        expect(error.message).toContain(`duties[1].entity.topic: unknown topic key "nope"`)
      }))

    it.effect("a duplicate key, a duplicate item key in a child, and a duplicate email in another case", () =>
      Effect.gen(function*() {
        const error = yield* invalid({
          ...withPeople([
            { key: "a", name: "Ann", email: "ann@broken.example", role: "owner" },
            { key: "a", name: "Another Ann", email: "ANN@Broken.example", role: "viewer" }
          ]),
          companyRoles: [],
          spaces: [{
            key: "s",
            category: "operations",
            name: "Space",
            topics: [{ key: "x", name: "Topic", items: [{ key: "i", name: "Item", kind: "fact", children: [{ key: "i", name: "Child", kind: "fact" }] }] }]
          }]
        })
        expect(error.problems).toEqual(expect.arrayContaining([
          `people[1].key: duplicate person key "a" (already used at people[0])`,
          `people[1].email: duplicate email "ANN@Broken.example" (already used at people[0])`,
          `spaces[0].topics[0].items[0].children[0].key: duplicate item key "i" (already used at spaces[0].topics[0].items[0])`
        ]))
      }))

    it.effect("tiers: a member's tier must be of that role; a duty's tier must be of its holder role, held by a role", () =>
      Effect.gen(function*() {
        const error = yield* invalid({
          ...base,
          companyRoles: [
            { key: "r1", name: "Role one", tiers: [{ key: "t1", label: "Junior" }], members: [{ person: "b", tier: "t3" }] },
            { key: "r2", name: "Role two", tiers: [{ key: "t3", label: "Only" }] }
          ],
          duties: [
            { holder: { role: "r1" }, raci: "RESPONSIBLE", entity: { topic: "x" }, tier: { qualifier: "MIN_TIER", tier: "t3" } },
            { holder: { team: "team" }, raci: "RESPONSIBLE", entity: { item: "i" }, tier: { qualifier: "EXACT_TIER", tier: "t1" } }
          ]
        })
        expect(error.problems).toEqual([
          `companyRoles[0].members[0].tier: tier "t3" is not on the advancement path of company role "r1"`,
          `duties[0].tier.tier: tier "t3" is not on the advancement path of company role "r1"`,
          "duties[1].tier: only a duty held by a company role can name a tier"
        ])
      }))

    it.effect("teams on a space or lesson only with visibility teams; manager cycles; token scopes the person may not hold", () =>
      Effect.gen(function*() {
        const error = yield* invalid({
          ...withPeople([
            { key: "a", name: "Ann", email: "ann@broken.example", role: "viewer", manager: "b", tokenScopes: ["training:assign"] },
            { key: "b", name: "Bob", email: "bob@broken.example", role: "viewer", manager: "a" }
          ]),
          companyRoles: [],
          teams: [{ key: "team", name: "Team" }],
          spaces: [{ key: "s", category: "operations", name: "Space", teams: ["team"] }],
          lessons: [{ key: "l", title: "Lesson", visibility: "teams", teams: ["ghost"] }]
        })
        expect(error.problems).toEqual(expect.arrayContaining([
          `spaces[0].teams: teams are listed only with visibility "teams" (this one is "everyone")`,
          `lessons[0].teams[0]: unknown team key "ghost"`,
          "people[0].manager: managers form a cycle: a -> b -> a",
          "people[0].tokenScopes: training:assign may only be granted to an organization admin or a team admin"
        ]))
      }))
  })

  it.effect("a failure inside the transaction rolls back everything written before it", () =>
    Effect.gen(function*() {
      // PostgreSQL refuses NUL in text: the very last table fails after the
      // organization, its people and its graph were already inserted.
      const fixture = demoFixture()
      const error = yield* failure({
        ...fixture,
        directory: { connection: { status: "ACTIVE" }, events: [{ operation: "LIST", outcome: "APPLIED", userName: "nul\u0000" }] }
      })
      expect(error._tag).toBe("SqlError")
    }))
})
