import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The W3C `traceparent` of the span that queued a job (the request, or the
 * job, that asked for it), when tracing was on then. A worker's run of the
 * job starts a trace of its own linked to that one, so an operator can go
 * from a request to the background work it caused. Nullable: jobs queued
 * with tracing off, and every job queued before this, have none.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN traceparent text`
})
