import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RateLimitWindow } from "@tks/domain/rate-limit"

export interface CounterKey {
  readonly orgId: string
  readonly rule: string
  readonly subject: string
}

/** Units one process counted locally in one window, to add to the shared count. */
export interface CounterIncrement extends CounterKey {
  readonly seconds: number
  readonly windowStart: number
  readonly count: number
}

export interface CounterTotal extends CounterKey {
  readonly windowStart: number
  readonly hits: number
  /** The database clock when the statement ran, in epoch milliseconds. */
  readonly nowMs: number
}

/** All SQL of the rate limiter; one statement per call, each atomic on its own. */
export class RateLimitRepo extends Effect.Service<RateLimitRepo>()("@tks/core/RateLimitRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Counts `cost` in every window of the rule, or in none: the windows
     * (current ones by the database clock) are counted in one row, and the
     * update sees its latest version under the row lock, so concurrent calls
     * from any process are serialised. A window that has moved on starts
     * from 0. Returns the counts after the call and whether it was refused.
     */
    const consume = (key: CounterKey, windows: ReadonlyArray<RateLimitWindow>, cost: number) => {
      const seconds = windows.map((w) => w.seconds)
      const limits = windows.map((w) => w.limit)
      return sql<{ hits: ReadonlyArray<number>; refused: boolean; now_ms: number }>`
        WITH fresh AS (
          SELECT array_agg(w.s ORDER BY w.i) AS seconds,
                 array_agg(floor(c.now_s / w.s)::bigint * w.s ORDER BY w.i) AS starts,
                 max(floor(c.now_s / w.s)::bigint * w.s + w.s) AS ends
          FROM (SELECT extract(epoch FROM now()) AS now_s) c,
               unnest(${seconds}::int[]) WITH ORDINALITY AS w(s, i)
        )
        INSERT INTO rate_limit_counters AS c (org_id, rule, subject, window_seconds, window_starts, hits, refused, expires_at)
        SELECT ${key.orgId}, ${key.rule}, ${key.subject}, f.seconds, f.starts,
               array_fill(${cost}::int, ARRAY[cardinality(f.seconds)]), false, to_timestamp(f.ends)
        FROM fresh f
        ON CONFLICT (org_id, rule, subject) DO UPDATE SET (hits, refused) = (
          SELECT CASE WHEN bool_and(w.used + ${cost} <= w.max) THEN array_agg(w.used + ${cost} ORDER BY w.i)
                      ELSE array_agg(w.used ORDER BY w.i) END,
                 NOT bool_and(w.used + ${cost} <= w.max)
          FROM (
            SELECT n.i, n.max, CASE WHEN o.s = n.s AND o.start = n.start THEN o.hits ELSE 0 END AS used
            FROM unnest(excluded.window_seconds, excluded.window_starts, ${limits}::int[]) WITH ORDINALITY AS n(s, start, max, i)
            LEFT JOIN unnest(c.window_seconds, c.window_starts, c.hits) WITH ORDINALITY AS o(s, start, hits, i) ON o.i = n.i
          ) w
        ), window_seconds = excluded.window_seconds, window_starts = excluded.window_starts, expires_at = excluded.expires_at
        RETURNING hits, refused, (extract(epoch FROM now()) * 1000)::float8 AS now_ms`.pipe(
        Effect.map((rows) => {
          const row = rows[0]!
          return { hits: row.hits, refused: row.refused, nowMs: row.now_ms }
        })
      )
    }

    /**
     * Adds locally counted units to the shared counts of single-window rules,
     * all in one statement, and reads back each total. Rows are written in
     * key order, so two processes flushing the same keys cannot deadlock. An
     * increment for a window the database has already moved past is dropped
     * (and not returned).
     */
    const addCounts = (increments: ReadonlyArray<CounterIncrement>) =>
      sql<{ org_id: string; rule: string; subject: string; window_start: number; hits: number; now_ms: number }>`
        INSERT INTO rate_limit_counters AS c (org_id, rule, subject, window_seconds, window_starts, hits, expires_at)
        SELECT t.org_id, t.rule, t.subject, ARRAY[t.s], ARRAY[t.start], ARRAY[t.n], to_timestamp(t.start + t.s)
        FROM unnest(
          ${increments.map((i) => i.orgId)}::text[], ${increments.map((i) => i.rule)}::text[],
          ${increments.map((i) => i.subject)}::text[], ${increments.map((i) => i.seconds)}::int[],
          ${increments.map((i) => i.windowStart)}::bigint[], ${increments.map((i) => i.count)}::int[]
        ) AS t(org_id, rule, subject, s, start, n)
        ORDER BY t.org_id, t.rule, t.subject
        ON CONFLICT (org_id, rule, subject) DO UPDATE SET
          hits = CASE WHEN c.window_seconds = excluded.window_seconds AND c.window_starts = excluded.window_starts
                      THEN ARRAY[c.hits[1] + excluded.hits[1]] ELSE excluded.hits END,
          window_seconds = excluded.window_seconds, window_starts = excluded.window_starts, expires_at = excluded.expires_at
        WHERE NOT (c.window_seconds = excluded.window_seconds AND c.window_starts[1] > excluded.window_starts[1])
        RETURNING org_id, rule, subject, window_starts[1]::float8 AS window_start, hits[1] AS hits,
                  (extract(epoch FROM now()) * 1000)::float8 AS now_ms`.pipe(
        Effect.map((rows) =>
          rows.map((row): CounterTotal => ({
            orgId: row.org_id,
            rule: row.rule,
            subject: row.subject,
            windowStart: row.window_start,
            hits: row.hits,
            nowMs: row.now_ms
          }))
        )
      )

    /** Forgets every counter whose longest window has ended. */
    const deleteExpired = sql`DELETE FROM rate_limit_counters WHERE expires_at < now()`.pipe(Effect.asVoid)

    return { consume, addCounts, deleteExpired } as const
  })
}) {}
