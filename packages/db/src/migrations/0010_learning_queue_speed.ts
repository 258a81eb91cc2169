import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The learning queue looks up the prerequisites of every topic a person's
 * duties reach (about 1,800 index probes for a person with 1,000 duties):
 * a partial index of the prerequisite relations alone, carrying the
 * prerequisite's id, answers each probe from the index (an index-only
 * scan) and is smaller than the primary key, which also holds the
 * `related` relations. Measured ~1-2 ms of ~30 on the queue bench.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX topic_relations_prerequisites ON topic_relations (org_id, topic_id)
    INCLUDE (related_topic_id) WHERE kind = 'prerequisite'`
})
