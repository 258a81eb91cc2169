import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { ImportResult, OrgFixtureInput } from "../src/org-import/schema.js"
import { doc, evidencedItem, importOnce } from "./support/coverage.js"

/**
 * `topic_learning` (migration 0011): per topic, its name, space, whether it
 * is live, the lessons covering it and its prerequisites, kept by triggers
 * on topics, topic_relations and lesson_topics whoever writes them.
 */
const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const fixture: OrgFixtureInput = {
  organization: { name: "Learning rows" },
  content: [doc("cA"), doc("cB")],
  spaces: [
    {
      key: "s",
      category: "operations",
      name: "S",
      topics: [
        { key: "basics", name: "Basics", items: [evidencedItem("i1", ["cA"])] },
        { key: "advanced", name: "Advanced", items: [evidencedItem("i2", ["cA", "cB"])], prerequisites: ["basics"] },
        { key: "expert", name: "Expert", items: [], prerequisites: ["basics", "advanced"] }
      ]
    },
    { key: "other", category: "operations", name: "Other", topics: [] }
  ],
  lessons: [
    { key: "lA", title: "A", content: ["cA"] },
    { key: "lB", title: "B", content: ["cB"] }
  ]
}

const setup = importOnce(fixture)

interface Row {
  readonly space: string
  readonly name: string
  readonly live: boolean
  readonly lessons: ReadonlyArray<string>
  readonly prerequisites: ReadonlyArray<readonly [string, string, string, boolean]>
}

/** Every row of the organization by topic key, ids shown as fixture keys. */
const rows = (result: ImportResult) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const keyOf = new Map(
      [...Object.entries(result.ids.lessons), ...Object.entries(result.ids.topics), ...Object.entries(result.ids.spaces)].map(([key, id]) => [id, key])
    )
    const key = (id: string) => keyOf.get(id) ?? id
    const found = yield* sql<{
      topic_id: string
      space_id: string
      name: string
      live: boolean
      lesson_ids: ReadonlyArray<string>
      prerequisites: ReadonlyArray<readonly [string, string, string, boolean]>
    }>`SELECT topic_id, space_id, name, live, lesson_ids, prerequisites FROM topic_learning WHERE org_id = ${result.organizationId}`
    return Object.fromEntries(found.map((row): [string, Row] => [key(row.topic_id), {
      space: key(row.space_id),
      name: row.name,
      live: row.live,
      lessons: row.lesson_ids.map(key).sort(),
      prerequisites: row.prerequisites.map(([id, name, space, live]) => [key(id), name, key(space), live] as const)
        .sort((a, b) => a[0].localeCompare(b[0]))
    }]))
  })

layer(TestLayer, { excludeTestServices: true })("topic_learning: what the learning queue reads of each topic", (it) => {
  it.effect("the import fills a row per topic with its lessons and prerequisites", () =>
    Effect.gen(function*() {
      const result = yield* setup
      expect(yield* rows(result)).toEqual({
        basics: { space: "s", name: "Basics", live: true, lessons: ["lA"], prerequisites: [] },
        advanced: { space: "s", name: "Advanced", live: true, lessons: ["lA", "lB"], prerequisites: [["basics", "Basics", "s", true]] },
        expert: {
          space: "s",
          name: "Expert",
          live: true,
          lessons: [],
          prerequisites: [["advanced", "Advanced", "s", true], ["basics", "Basics", "s", true]]
        }
      })
    }))

  it.effect("a topic renamed, archived or moved changes its row and the prerequisites of the topics that need it", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { spaces, topics } = result.ids
      yield* sql`UPDATE topics SET name = 'Foundations', state = 'archived', space_id = ${spaces.other!}
        WHERE org_id = ${org} AND id = ${topics.basics!}`
      const after = yield* rows(result)
      expect(after.basics).toMatchObject({ name: "Foundations", live: false, space: "other" })
      expect(after.advanced!.prerequisites).toEqual([["basics", "Foundations", "other", false]])
      expect(after.expert!.prerequisites).toEqual([["advanced", "Advanced", "s", true], ["basics", "Foundations", "other", false]])

      yield* sql`UPDATE topics SET name = 'Basics', state = 'live', space_id = ${spaces.s!} WHERE org_id = ${org} AND id = ${topics.basics!}`
      expect((yield* rows(result)).advanced!.prerequisites).toEqual([["basics", "Basics", "s", true]])
    }))

  it.effect("an update that changes none of name, state or space (the search index) leaves every row as it was", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const before = yield* rows(result)
      yield* sql`UPDATE topics SET updated_at = now() + interval '1 minute' WHERE org_id = ${result.organizationId}`
      expect(yield* rows(result)).toEqual(before)
    }))

  it.effect("a prerequisite relation added or removed changes the prerequisites; a 'related' relation does not", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { topics } = result.ids
      yield* sql`INSERT INTO topic_relations (org_id, topic_id, related_topic_id, kind)
        VALUES (${org}, ${topics.basics!}, ${topics.expert!}, 'related')`
      expect((yield* rows(result)).basics!.prerequisites).toEqual([])
      yield* sql`UPDATE topic_relations SET kind = 'prerequisite' WHERE org_id = ${org} AND topic_id = ${topics.basics!}`
      expect((yield* rows(result)).basics!.prerequisites).toEqual([["expert", "Expert", "s", true]])
      yield* sql`DELETE FROM topic_relations WHERE org_id = ${org} AND topic_id = ${topics.basics!}`
      expect((yield* rows(result)).basics!.prerequisites).toEqual([])
      yield* sql`DELETE FROM topic_relations WHERE org_id = ${org} AND topic_id = ${topics.expert!} AND related_topic_id = ${topics.advanced!}`
      expect((yield* rows(result)).expert!.prerequisites).toEqual([["basics", "Basics", "s", true]])
    }))

  it.effect("coverage that changes in lesson_topics (here, evidence removed and added) changes the lessons", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { content, items } = result.ids
      yield* sql`DELETE FROM evidence WHERE org_id = ${org} AND item_id = ${items.i2!} AND content_id = ${content.cB!}`
      expect((yield* rows(result)).advanced!.lessons).toEqual(["lA"])
      yield* sql`INSERT INTO evidence (org_id, id, item_id, content_id, confidence, locator)
        VALUES (${org}, 'evidence_again', ${items.i2!}, ${content.cB!}, 1, 'again')`
      expect((yield* rows(result)).advanced!.lessons).toEqual(["lA", "lB"])
    }))

  it.effect("a topic inserted gets its row; a topic deleted loses it", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      yield* sql`INSERT INTO topics (org_id, id, space_id, name, slug) VALUES (${org}, 'topic_new', ${result.ids.spaces.s!}, 'New', 'new')`
      expect((yield* rows(result)).topic_new).toEqual({ space: "s", name: "New", live: true, lessons: [], prerequisites: [] })
      yield* sql`DELETE FROM topics WHERE org_id = ${org} AND id = 'topic_new'`
      expect((yield* rows(result)).topic_new).toBeUndefined()
    }))

  it.effect("every statement that changes the organization's rows raises its version once (topic_learning_versions); one that changes none leaves it", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const version = Effect.map(
        sql<{ version: string }>`SELECT version::text FROM topic_learning_versions WHERE org_id = ${org}`,
        ([row]) => Number(row!.version)
      )
      const start = yield* version
      expect(start).toBeGreaterThan(0)
      yield* sql`UPDATE topics SET updated_at = now() + interval '2 minutes' WHERE org_id = ${org}`
      expect(yield* version).toBe(start)
      yield* sql`INSERT INTO topics (org_id, id, space_id, name, slug) VALUES (${org}, 'topic_versioned', ${result.ids.spaces.s!}, 'Versioned', 'versioned')`
      expect(yield* version).toBe(start + 1)
      yield* sql`UPDATE topics SET name = 'Versioned again' WHERE org_id = ${org} AND id = 'topic_versioned'`
      expect(yield* version).toBe(start + 2)
      yield* sql`DELETE FROM topics WHERE org_id = ${org} AND id = 'topic_versioned'`
      expect(yield* version).toBe(start + 3)
    }))
})
