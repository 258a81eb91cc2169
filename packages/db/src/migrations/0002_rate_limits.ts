import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Rate-limit counters, shared by every server process.
 *
 * One row per (organization, rule, subject) holds the counts of all the
 * rule's fixed windows, as parallel arrays: `window_seconds[i]`, the epoch
 * second `window_starts[i]` its current window began, and `hits[i]` counted
 * in it. A rule with several windows (3 per minute and 20 per hour) is thus
 * decided by one INSERT ... ON CONFLICT DO UPDATE, whose row lock sees every
 * window's latest count: with a row per window, one statement could not
 * refuse in all windows at once. `refused` is the outcome of the latest
 * attempt, read back by RETURNING (PostgreSQL 15 has no OLD there).
 *
 * `expires_at` is when the longest window ends; rows past it are deleted by
 * a background sweep (unindexed: the sweep is rare and a seq scan of a small
 * table, while an index on it would end HOT updates of busy rows).
 * fillfactor leaves room on each page for those HOT updates.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE rate_limit_counters (
    org_id text NOT NULL,
    rule text NOT NULL,
    subject text NOT NULL,
    window_seconds integer[] NOT NULL,
    window_starts bigint[] NOT NULL,
    hits integer[] NOT NULL,
    refused boolean NOT NULL DEFAULT false,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, rule, subject)
  ) WITH (fillfactor = 70)`
})
