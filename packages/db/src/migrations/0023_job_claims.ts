import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Due jobs by kind, in claim order. A worker claims the oldest due job of
 * each kind it runs through this index, one short probe per kind, instead
 * of sorting every due job: behind a backlog (assigning a lesson to 20,000
 * people queues 40,000 jobs, and its webhook deliveries 20,000 more) each
 * claim sorted them all, 100 to 300 ms, and the workers drained a few jobs
 * a second. With it a claim costs about a millisecond at any depth. It
 * replaces the index of due jobs by time alone, which nothing else needs:
 * the operator's backlog gauge reads open jobs by kind as well.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX jobs_due_by_kind ON jobs (kind, run_after, created_at, id) WHERE status = 'PENDING'`
  yield* sql`DROP INDEX jobs_ready`
})
