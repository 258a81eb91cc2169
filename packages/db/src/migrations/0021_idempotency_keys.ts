import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The answers of writes sent with an `Idempotency-Key`, one row per
 * (access token, key): the token by its SHA-256 (as `access_tokens` keeps
 * it), `request_hash` the SHA-256 of what was asked (method, path, query,
 * body), and the answer sent (status, `Content-Type`, `Location`, the body's
 * bytes). A row is written in the transaction of the write it answers, so
 * the two commit together.
 *
 * Rows older than a day are ignored and deleted by a background sweep, by
 * `created_at` (indexed: the sweep runs every few minutes on a table that
 * only grows between sweeps; rows are never updated in place but to replace
 * one past its day).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE idempotency_keys (
    token_hash text NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    status smallint NOT NULL,
    content_type text,
    location text,
    body bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (token_hash, key)
  )`
  yield* sql`CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)`
})
