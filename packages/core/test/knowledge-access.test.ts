import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { OrgRole, Visibility } from "@tks/domain/roles"
import { canRead } from "@tks/domain/visibility"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { ImportResult, OrgFixtureInput } from "../src/org-import/schema.js"
import {
  itemLive,
  itemVisible,
  lessonReadable,
  type Reader,
  readerOf,
  spaceLive,
  spaceReadable,
  spaceVisible,
  topicLive,
  topicVisible,
  userRowReader
} from "../src/knowledge/access.js"
import { importedAs } from "./support/access.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const people: ReadonlyArray<{ key: string; role: OrgRole; teams: ReadonlyArray<string> }> = [
  { key: "owner", role: "owner", teams: [] },
  { key: "admin", role: "admin", teams: [] },
  { key: "billing", role: "billing-admin", teams: [] },
  { key: "viewer", role: "viewer", teams: [] },
  { key: "viewerRed", role: "viewer", teams: ["red"] },
  { key: "viewerBlue", role: "viewer", teams: ["blue"] },
  { key: "external", role: "external", teams: [] },
  { key: "externalRed", role: "external", teams: ["red"] }
]

const records: ReadonlyArray<{ key: string; visibility: Visibility; teams: ReadonlyArray<string> }> = [
  { key: "open", visibility: "everyone", teams: [] },
  { key: "red", visibility: "teams", teams: ["red"] },
  { key: "redGreen", visibility: "teams", teams: ["red", "green"] },
  { key: "green", visibility: "teams", teams: ["green"] },
  { key: "admins", visibility: "admins", teams: [] }
]

const fixture: OrgFixtureInput = {
  organization: { name: "Access Org" },
  people: people.map((p) => ({ key: p.key, name: `Person ${p.key}`, email: `${p.key}@access.test`, role: p.role })),
  teams: ["red", "blue", "green"].map((team) => ({
    key: team,
    name: `Team ${team}`,
    members: people.filter((p) => p.teams.includes(team)).map((p) => ({ person: p.key }))
  })),
  spaces: [
    ...records.map((r) => ({ key: `space_${r.key}`, category: "sales" as const, name: `Space ${r.key}`, visibility: r.visibility, teams: [...r.teams] })),
    {
      key: "graph",
      category: "operations",
      name: "Graph",
      topics: [
        {
          key: "liveTopic",
          name: "Live topic",
          items: [
            {
              key: "root",
              name: "Root",
              kind: "process",
              children: [
                { key: "child", name: "Child", kind: "fact", children: [{ key: "grandchild", name: "Grandchild", kind: "fact" }] },
                {
                  key: "archivedChild",
                  name: "Archived child",
                  kind: "fact",
                  state: "archived",
                  children: [{
                    key: "belowArchived",
                    name: "Below archived",
                    kind: "fact",
                    children: [{ key: "deepBelowArchived", name: "Deep below archived", kind: "fact" }]
                  }]
                }
              ]
            },
            { key: "supersededItem", name: "Superseded", kind: "fact", state: "superseded" }
          ]
        },
        { key: "supersededTopic", name: "Superseded topic", state: "superseded", items: [{ key: "inSupersededTopic", name: "In", kind: "fact" }] }
      ]
    },
    {
      key: "archivedSpace",
      category: "operations",
      name: "Archived space",
      state: "archived",
      topics: [{ key: "inArchivedSpace", name: "Topic in archived space", items: [{ key: "itemInArchivedSpace", name: "Item", kind: "fact" }] }]
    },
    {
      key: "hidden",
      category: "operations",
      name: "Hidden",
      visibility: "admins",
      topics: [{ key: "hiddenTopic", name: "Hidden topic", items: [{ key: "hiddenItem", name: "Hidden item", kind: "fact" }] }]
    }
  ],
  lessons: records.map((r) => ({ key: `lesson_${r.key}`, title: `Lesson ${r.key}`, visibility: r.visibility, teams: [...r.teams] }))
}

const setup = Effect.runSync(Effect.cached(
  FixtureImporter.pipe(Effect.flatMap((importer) => importer.importOrganization(fixture)), Effect.orDie)
))

/** The person `key` as a caller (role and teams as the fixture gives them). */
const actorFor = (result: ImportResult, key: string): Actor => importedAs(fixture, result).actor(key)

/** What @tks/domain/visibility says, for every person and record: "person/record" pairs. */
const expectedPairs = people.flatMap((p) =>
  records
    .filter((r) => canRead({ role: p.role, teamIds: p.teams }, r.visibility, r.teams))
    .map((r) => `${p.key}/${r.key}`)
).sort()

layer(TestLayer)("knowledge access SQL (space visibility, the live graph)", (it) => {
  describe("visibility", () => {
    it.effect("the expected matrix: everyone excludes external, teams includes external team members, admins only admins", () =>
      Effect.sync(() => {
        expect(expectedPairs.filter((pair) => pair.startsWith("external"))).toEqual(["externalRed/red", "externalRed/redGreen"])
        expect(expectedPairs.filter((pair) => pair.startsWith("viewer/"))).toEqual(["viewer/open"])
        expect(expectedPairs.filter((pair) => pair.startsWith("viewerRed/"))).toEqual(["viewerRed/open", "viewerRed/red", "viewerRed/redGreen"])
        expect(expectedPairs.filter((pair) => pair.startsWith("admin/"))).toHaveLength(records.length)
        expect(expectedPairs.filter((pair) => pair.endsWith("/admins"))).toEqual(["admin/admins", "billing/admins", "owner/admins"])
      }))

    it.effect("spaceReadable for a known person (the caller) agrees with canRead", () =>
      Effect.gen(function*() {
        const result = yield* setup
        const sql = yield* SqlClient.SqlClient
        const pairs: Array<string> = []
        for (const p of people) {
          const reader = readerOf(actorFor(result, p.key))
          const rows = yield* sql<{ id: string }>`SELECT s.id FROM spaces s
            WHERE s.org_id = ${result.organizationId} AND s.category_id = ${result.ids.categories.sales} AND ${spaceReadable(sql, reader, "s")}`
          const keyOf = new Map(records.map((r) => [result.ids.spaces[`space_${r.key}`], r.key]))
          pairs.push(...rows.map((row) => `${p.key}/${keyOf.get(row.id)}`))
        }
        expect(pairs.sort()).toEqual(expectedPairs)
      }))

    it.effect("spaceReadable for users rows of the query (set-based) agrees with canRead", () =>
      Effect.gen(function*() {
        const result = yield* setup
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ person: string; space: string }>`
          SELECT u.id AS person, s.id AS space FROM users u JOIN spaces s ON s.org_id = u.org_id
          WHERE u.org_id = ${result.organizationId} AND s.category_id = ${result.ids.categories.sales}
            AND ${spaceReadable(sql, userRowReader("u"), "s")}`
        const personKey = new Map(Object.entries(result.ids.people).map(([key, id]) => [id, key]))
        const spaceKey = new Map(records.map((r) => [result.ids.spaces[`space_${r.key}`], r.key]))
        expect(rows.map((row) => `${personKey.get(row.person)}/${spaceKey.get(row.space)}`).sort()).toEqual(expectedPairs)
      }))

    it.effect("lessonReadable agrees with canRead, for a known person and for users rows", () =>
      Effect.gen(function*() {
        const result = yield* setup
        const sql = yield* SqlClient.SqlClient
        const lessonKey = new Map(records.map((r) => [result.ids.lessons[`lesson_${r.key}`], r.key]))
        const known: Array<string> = []
        for (const p of people) {
          const rows = yield* sql<{ id: string }>`SELECT l.id FROM lessons l
            WHERE l.org_id = ${result.organizationId} AND ${lessonReadable(sql, readerOf(actorFor(result, p.key)), "l")}`
          known.push(...rows.map((row) => `${p.key}/${lessonKey.get(row.id)}`))
        }
        expect(known.sort()).toEqual(expectedPairs)
        const rows = yield* sql<{ person: string; lesson: string }>`
          SELECT u.id AS person, l.id AS lesson FROM users u JOIN lessons l ON l.org_id = u.org_id
          WHERE u.org_id = ${result.organizationId} AND ${lessonReadable(sql, userRowReader("u"), "l")}`
        const personKey = new Map(Object.entries(result.ids.people).map(([key, id]) => [id, key]))
        expect(rows.map((row) => `${personKey.get(row.person)}/${lessonKey.get(row.lesson)}`).sort()).toEqual(expectedPairs)
      }))

    it.effect("a team link in another organization never makes a record readable", () =>
      Effect.gen(function*() {
        const result = yield* setup
        const sql = yield* SqlClient.SqlClient
        // A reader claiming this organization's team ids reads nothing of another organization.
        const stranger = yield* FixtureImporter.pipe(Effect.flatMap((importer) =>
          importer.importOrganization({
            organization: { name: "Stranger Org" },
            teams: [{ key: "red", name: "Red elsewhere" }],
            spaces: [{ key: "s", category: "sales", name: "Theirs", visibility: "teams", teams: ["red"] }]
          })
        ), Effect.orDie)
        const reader: Reader = { _tag: "Person", role: "viewer", teamIds: [result.ids.teams.red!] }
        const rows = yield* sql`SELECT s.id FROM spaces s WHERE s.org_id = ${stranger.organizationId} AND ${spaceReadable(sql, reader, "s")}`
        expect(rows).toEqual([])
      }))
  })

  describe("live graph", () => {
    const keysOf = (ids: Record<string, string>, rows: ReadonlyArray<{ id: string }>) => {
      const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]))
      return rows.map((row) => keyOf.get(row.id)).sort()
    }

    it.effect("spaces, topics and items are live only when they and every ancestor are live", () =>
      Effect.gen(function*() {
        const result = yield* setup
        const sql = yield* SqlClient.SqlClient
        const org = result.organizationId
        const spaces = yield* sql<{ id: string }>`SELECT s.id FROM spaces s WHERE s.org_id = ${org} AND s.category_id = ${result.ids.categories.operations} AND ${spaceLive(sql, "s")}`
        expect(keysOf(result.ids.spaces, spaces)).toEqual(["graph", "hidden"])
        const topics = yield* sql<{ id: string }>`SELECT t.id FROM topics t WHERE t.org_id = ${org} AND ${topicLive(sql, "t")}`
        expect(keysOf(result.ids.topics, topics)).toEqual(["hiddenTopic", "liveTopic"])
        const items = yield* sql<{ id: string }>`SELECT i.id FROM items i WHERE i.org_id = ${org} AND ${itemLive(sql, "i")}`
        expect(keysOf(result.ids.items, items)).toEqual(["child", "grandchild", "hiddenItem", "root"])
      }))

    it.effect("visible = live and readable: topics and items follow their space's visibility", () =>
      Effect.gen(function*() {
        const result = yield* setup
        const sql = yield* SqlClient.SqlClient
        const org = result.organizationId
        const scope = sql`AND x.id = ANY(${[...Object.values(result.ids.topics)]})`
        const viewer = readerOf(actorFor(result, "viewer"))
        const admin = readerOf(actorFor(result, "admin"))
        const topicsFor = (reader: Reader) =>
          sql<{ id: string }>`SELECT x.id FROM topics x WHERE x.org_id = ${org} ${scope} AND ${topicVisible(sql, reader, "x")}`
        expect(keysOf(result.ids.topics, yield* topicsFor(viewer))).toEqual(["liveTopic"])
        expect(keysOf(result.ids.topics, yield* topicsFor(admin))).toEqual(["hiddenTopic", "liveTopic"])
        const itemsFor = (reader: Reader) =>
          sql<{ id: string }>`SELECT x.id FROM items x WHERE x.org_id = ${org} AND ${itemVisible(sql, reader, "x")}`
        expect(keysOf(result.ids.items, yield* itemsFor(viewer))).toEqual(["child", "grandchild", "root"])
        expect(keysOf(result.ids.items, yield* itemsFor(admin))).toEqual(["child", "grandchild", "hiddenItem", "root"])
        const spacesFor = (reader: Reader) =>
          sql<{ id: string }>`SELECT x.id FROM spaces x WHERE x.org_id = ${org} AND x.category_id = ${result.ids.categories.operations} AND ${spaceVisible(sql, reader, "x")}`
        expect(keysOf(result.ids.spaces, yield* spacesFor(viewer))).toEqual(["graph"])
        expect(keysOf(result.ids.spaces, yield* spacesFor(admin))).toEqual(["graph", "hidden"])
        // An external account reads no everyone-space, so none of its topics or items.
        const external = readerOf(actorFor(result, "external"))
        expect(yield* itemsFor(external)).toEqual([])
      }))
  })
})
