import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Every authenticated request now writes its rate-limit counter (the
 * per-token count is taken by the statement that reads the token). In a
 * logged table each such write would wait, at commit, for the WAL to reach
 * disk: a few milliseconds on every request. The counters need no
 * durability: after a database crash PostgreSQL empties an unlogged table,
 * which only gives every caller a fresh window once; standbys do not carry
 * it, and a promoted standby starts the windows afresh the same way.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE rate_limit_counters SET UNLOGGED`
})
