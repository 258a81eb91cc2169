import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The directory (SCIM) connection's bearer token, found by its SHA-256 on
 * every request the organization's identity directory sends: one index
 * over the live hashes, unique, so a hash names one connection.
 *
 * Rotating the token keeps the hash it replaced (`previous_token_hash`,
 * with when: `previous_token_replaced_at`), indexed the same way. That
 * token no longer authenticates; keeping its hash lets a request that still
 * carries it be told apart from a made-up token and recorded in the
 * organization's directory events (AUTH REJECTED TOKEN_REVOKED), which is
 * how an admin sees that the directory was not given the new token. Only
 * the last replaced token is kept.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE UNIQUE INDEX directory_connections_token ON directory_connections (token_hash) WHERE token_hash IS NOT NULL`
  yield* sql`ALTER TABLE directory_connections
    ADD COLUMN previous_token_hash text,
    ADD COLUMN previous_token_replaced_at timestamptz,
    ADD CONSTRAINT directory_connections_previous_token CHECK ((previous_token_hash IS NULL) = (previous_token_replaced_at IS NULL))`
  yield* sql`CREATE UNIQUE INDEX directory_connections_previous_token ON directory_connections (previous_token_hash)
    WHERE previous_token_hash IS NOT NULL`
})
