import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import itemPositions from "@tks/db/migrations/0018_item_positions"
import { testDatabaseLayer } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"

/**
 * Migration 0018 on a database that already holds items: every item gets a
 * place among its siblings, those with evidence in a document's text in the
 * order of where it starts, the others after them by name.
 */
const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(testDatabaseLayer()))

const body = "Zulu comes first in the text. Alpha is said later."
const chars = (text: string): [number, number] => [body.indexOf(text), body.indexOf(text) + text.length]

layer(TestLayer)("the item positions migration", (it) => {
  it.effect("numbers existing items among their siblings: by where their evidence starts, then by name; none is left without", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const importer = yield* FixtureImporter
      const { organizationId } = yield* importer.importOrganization({
        organization: { name: "Backfill" },
        content: [{ key: "doc", title: "Doc", body }],
        spaces: [{
          key: "ops",
          category: "operations",
          name: "Ops",
          topics: [{
            key: "topic",
            name: "Topic",
            // Fixture order, name order and document order all differ.
            items: [
              { key: "alpha", name: "Alpha", kind: "fact", evidence: [{ content: "doc", chars: chars("Alpha is said later.") }] },
              { key: "zulu", name: "Zulu", kind: "fact", evidence: [{ content: "doc", chars: chars("Zulu comes first in the text.") }] },
              { key: "mike", name: "Mike", kind: "fact" },
              {
                key: "bravo",
                name: "Bravo",
                kind: "process",
                children: [{ key: "second", name: "Second", kind: "process" }, { key: "first", name: "First", kind: "process" }]
              }
            ]
          }]
        }]
      })
      // The database as it was before the migration (no positions), then the migration itself, whatever came after it.
      yield* sql`ALTER TABLE items DROP COLUMN position`
      yield* itemPositions

      const rows = yield* sql<{ name: string; parent: string | null; position: number }>`
        SELECT i.name, p.name AS parent, i.position FROM items i LEFT JOIN items p ON p.org_id = i.org_id AND p.id = i.parent_item_id
        WHERE i.org_id = ${organizationId} ORDER BY p.name NULLS FIRST, i.position`
      expect(rows.map((row) => `${row.parent ?? "-"} ${row.position} ${row.name}`)).toEqual([
        "- 1 Zulu",
        "- 2 Alpha",
        "- 3 Bravo",
        "- 4 Mike",
        "Bravo 1 First",
        "Bravo 2 Second"
      ])
      // A row written without a place is refused from now on.
      const refused = yield* Effect.either(sql`UPDATE items SET position = NULL WHERE org_id = ${organizationId}`)
      expect(refused._tag).toBe("Left")
    }).pipe(Effect.orDie))
})
