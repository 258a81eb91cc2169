import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { ImportResult, OrgFixtureInput } from "../src/org-import/schema.js"
import { doc, evidencedItem, importOnce } from "./support/coverage.js"

/**
 * `lesson_topics` (migration 0009): a lesson covers a topic while one of its
 * content pieces is evidence for a live item of the topic, kept so by
 * triggers on evidence, lesson_content and items whoever writes them.
 */
const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const fixture: OrgFixtureInput = {
  organization: { name: "Coverage" },
  content: [doc("cA"), doc("cB"), doc("cC")],
  spaces: [{
    key: "s",
    category: "operations",
    name: "S",
    topics: [
      { key: "t1", name: "T1", items: [evidencedItem("i1", ["cA"]), evidencedItem("i2", ["cB"])] },
      { key: "t2", name: "T2", items: [evidencedItem("i3", ["cB"])] },
      { key: "t3", name: "T3", items: [evidencedItem("i4", ["cC"])] }
    ]
  }],
  lessons: [
    { key: "lA", title: "A", content: ["cA"] },
    { key: "lB", title: "B", content: ["cB"] },
    { key: "lAC", title: "AC", content: ["cA", "cC"] }
  ]
}

const setup = importOnce(fixture)

/** The pairs as "lesson topic" keys, sorted. */
const pairs = (result: ImportResult) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const keyOf = new Map([...Object.entries(result.ids.lessons), ...Object.entries(result.ids.topics)].map(([key, id]) => [id, key]))
    const rows = yield* sql<{ lesson_id: string; topic_id: string }>`
      SELECT lesson_id, topic_id FROM lesson_topics WHERE org_id = ${result.organizationId}`
    return rows.map((row) => `${keyOf.get(row.lesson_id)} ${keyOf.get(row.topic_id)}`).sort()
  })

layer(TestLayer, { excludeTestServices: true })("lesson_topics: which topics a lesson covers", (it) => {
  it.effect("the import fills it from lesson_content, evidence and items", () =>
    Effect.gen(function*() {
      const result = yield* setup
      expect(yield* pairs(result)).toEqual(["lA t1", "lAC t1", "lAC t3", "lB t1", "lB t2"])
    }))

  it.effect("evidence removed takes a pair away only when nothing else supports it; evidence added brings it back", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { content, items } = result.ids
      // T1 is covered by B through i2 only; T2 through i3.
      yield* sql`DELETE FROM evidence WHERE org_id = ${org} AND item_id = ${items.i2!}`
      expect(yield* pairs(result)).toEqual(["lA t1", "lAC t1", "lAC t3", "lB t2"])
      yield* sql`INSERT INTO evidence (org_id, id, item_id, content_id, confidence, locator)
        VALUES (${org}, 'evidence_again', ${items.i2!}, ${content.cB!}, 1, 'again')`
      expect(yield* pairs(result)).toEqual(["lA t1", "lAC t1", "lAC t3", "lB t1", "lB t2"])
    }))

  it.effect("a lesson's content piece removed or added changes its pairs, and other lessons' stay", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { content, lessons } = result.ids
      yield* sql`DELETE FROM lesson_content WHERE org_id = ${org} AND lesson_id = ${lessons.lAC!} AND content_id = ${content.cC!}`
      expect(yield* pairs(result)).toEqual(["lA t1", "lAC t1", "lB t1", "lB t2"])
      yield* sql`INSERT INTO lesson_content (org_id, lesson_id, position, content_id) VALUES (${org}, ${lessons.lA!}, 5, ${content.cC!})`
      expect(yield* pairs(result)).toEqual(["lA t1", "lA t3", "lAC t1", "lB t1", "lB t2"])
    }))

  it.effect("an item archived no longer covers its topic, made live again it does; an item moved takes its coverage along", () =>
    Effect.gen(function*() {
      const result = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { items, topics } = result.ids
      yield* sql`UPDATE items SET state = 'archived' WHERE org_id = ${org} AND id = ${items.i3!}`
      expect(yield* pairs(result)).toEqual(["lA t1", "lA t3", "lAC t1", "lB t1"])
      yield* sql`UPDATE items SET state = 'live' WHERE org_id = ${org} AND id = ${items.i3!}`
      expect(yield* pairs(result)).toEqual(["lA t1", "lA t3", "lAC t1", "lB t1", "lB t2"])
      yield* sql`UPDATE items SET topic_id = ${topics.t3!} WHERE org_id = ${org} AND id = ${items.i3!}`
      expect(yield* pairs(result)).toEqual(["lA t1", "lA t3", "lAC t1", "lB t1", "lB t3"])
    }))
})
