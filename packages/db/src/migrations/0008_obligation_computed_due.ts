import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The computed due date behind an override
 * (POST /v1/obligations/{id}/due-date: null removes the override and
 * restores the computed date). `due_date` stays the date the person sees;
 * `computed_due_date` is the date the assigning acts computed, which later
 * assignments keep merging into without moving an override or a date under
 * review. Only those two states need it: otherwise it equals `due_date`,
 * which is what a row written without it (an imported one) is read as.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE obligations ADD COLUMN computed_due_date timestamptz`
})
