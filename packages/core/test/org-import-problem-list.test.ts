import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { decodeFixture } from "../src/org-import/decode.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { checkFixture } from "../src/org-import/plan.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

/** Imports `input`, which must be refused without writing anything, and returns the refusal. */
const refused = (input: unknown) =>
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const sql = yield* SqlClient.SqlClient
    const error = yield* Effect.flip(importer.importOrganization(input))
    if (error._tag !== "FixtureInvalid") throw error
    const [orgs] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`
    expect(orgs?.n).toBe(0)
    return error
  })

const mixed = {
  organization: { name: "Mixed Co" },
  people: [
    { key: "ann", name: "Ann", email: "ann@mixed.example", role: "owner" },
    { key: "bob", name: "Bob", email: "bob@mixed.example", role: "boss", manager: "ann" }
  ],
  teams: [{ key: "crew", name: "Crew", members: [{ person: "bob" }, { person: "ghost" }] }],
  duties: [{ holder: { person: "ann" }, raci: "RESPONSIBLE", entity: { topic: "nowhere" } }],
  findings: [{ content: "late", source: { type: "user" }, createdAt: "last week" }]
}

const mixedList = [
  `people[1].role: expected "owner" | "admin" | "billing-admin" | "viewer" | "external", got "boss"`,
  `teams[0].members[1].person: unknown person key "ghost"`,
  `duties[0].entity.topic: unknown topic key "nowhere"`,
  `findings[0].createdAt: "last week" is not an ISO 8601 date-time with an offset, such as "2026-11-21T10:52:00Z"`
]

layer(TestLayer)("the problem list of an invalid fixture", (it) => {
  it.effect("format problems and reference problems are reported together, in document order, one line each", () =>
    Effect.gen(function*() {
      const error = yield* refused(mixed)
      expect(error.problems).toEqual(mixedList)
    }))

  it.effect("the message is the list and nothing else: no parse tree, no stack", () =>
    Effect.gen(function*() {
      const error = yield* refused(mixed)
      expect(error.message).toBe(
        ["The fixture has 4 problems; nothing was imported:", ...mixedList.map((line) => `  - ${line}`)].join("\n")
      )
    }))

  it.effect("checked without a database (as the CLI does before opening one), the list is the same", () =>
    Effect.sync(() => {
      const checked = checkFixture(decodeFixture(mixed))
      if (Either.isRight(checked)) throw new Error("the check was expected to fail")
      expect(checked.left.problems).toEqual(mixedList)
    }))

  it.effect("a record refused for its format still defines its key: references to it are not reported as unknown", () =>
    Effect.gen(function*() {
      const error = yield* refused({
        organization: { name: "Keyed Co" },
        people: [{ key: "gone", name: "Gone", email: "gone@keyed.example", role: "viewer", status: "DEACTIVATED", deactivatedAt: "2026-02-29T00:00:00Z" }],
        teams: [{ key: "crew", name: "Crew", members: [{ person: "gone" }] }],
        companyRoles: [{ key: "r", name: "Role", members: [{ person: "gone" }], curriculum: [{ lesson: "l" }] }],
        lessons: [{ key: "l", title: "Lesson", visibility: "nobody" }]
      })
      expect(error.problems).toEqual([
        `people[0].deactivatedAt: "2026-02-29T00:00:00Z" is not a real date-time: February 2026 has 28 days`,
        `lessons[0].visibility: expected "everyone" | "teams" | "admins", got "nobody"`
      ])
    }))

  it.effect("a refused value is quoted by its start only, so each problem stays one short line", () =>
    Effect.gen(function*() {
      const long = "x".repeat(9_000)
      const error = yield* refused({
        organization: { name: "Long Co" },
        people: [{ key: "a", name: "A", email: "a@long.example", role: long, deactivatedAt: long }]
      })
      expect(error.problems).toHaveLength(2)
      for (const line of error.problems) expect(line.length).toBeLessThan(200)
      expect(error.message.length).toBeLessThan(600)
    }))

  it.effect("a document or a section of the wrong JSON type is named as an object or an array", () =>
    Effect.gen(function*() {
      const error = yield* refused([1, 2, 3])
      const section = yield* refused({ organization: { name: "Shapeless Co" }, people: {} })
      expect(section.problems).toEqual(["people: expected an array, got {}"])
      expect(error.message).toBe("The fixture has 1 problem; nothing was imported:\n  - (document): expected an object, got [1,2,3]")
    }))
})
