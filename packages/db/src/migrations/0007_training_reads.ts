import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * GET /v1/members/progress lists people who have finished setting up by their
 * login name (the email, lower-cased, compared byte by byte) with the id
 * breaking ties: this index serves that order and the keyset that resumes it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX users_by_login ON users (org_id, (lower(email) COLLATE "C"), id) WHERE signed_up`
})
