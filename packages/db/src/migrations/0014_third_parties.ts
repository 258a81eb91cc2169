import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Third parties are listed by name (GET /v1/third-parties), like company
 * roles and teams: a lower-cased, C-collated `sort_name` and an index in
 * that order, so the listing is read in index order.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE third_parties ADD COLUMN sort_name text COLLATE "C" GENERATED ALWAYS AS (lower(name)) STORED`
  yield* sql`CREATE INDEX third_parties_by_name ON third_parties (org_id, sort_name, id)`
})
