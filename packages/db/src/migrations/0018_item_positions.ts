import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An item's place among its siblings (the top-level items of its topic, or
 * the children of its parent item), from 1: the order its source states them
 * in (a document's numbered steps, a fixture's list). Reads list siblings by
 * it, then by name.
 *
 * Existing rows: items with evidence in a document's text take the order of
 * where that evidence starts, the rest follow by name (the order they were
 * read in until now), so no row is left without a place.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE items ADD COLUMN position integer`
  yield* sql`
    UPDATE items SET position = ranked.position
    FROM (
      SELECT i.org_id, i.id, row_number() OVER (
        PARTITION BY i.org_id, i.topic_id, i.parent_item_id
        ORDER BY (SELECT min(e.char_start) FROM evidence e WHERE e.org_id = i.org_id AND e.item_id = i.id) NULLS LAST,
                 lower(i.name) COLLATE "C", i.id
      )::int AS position
      FROM items i
    ) ranked
    WHERE items.org_id = ranked.org_id AND items.id = ranked.id`
  yield* sql`ALTER TABLE items ALTER COLUMN position SET NOT NULL`
  yield* sql`ALTER TABLE items ADD CONSTRAINT items_position_positive CHECK (position >= 1)`
})
