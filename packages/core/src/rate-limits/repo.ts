import { SqlClient, type Statement } from "@effect/sql"
import { Effect } from "effect"
import type { RateLimitWindow } from "@tks/domain/rate-limit"
import { direct } from "@tks/db/direct"

interface CounterKey {
  readonly orgId: string
  readonly rule: string
  readonly subject: string
}

/** What one counting statement left: the counts after it, whether it refused, and the database clock. */
export interface Counted {
  readonly hits: ReadonlyArray<number>
  readonly refused: boolean
  /** The database clock when the statement ran, in epoch milliseconds. */
  readonly nowMs: number
}

/** The columns a statement embedding `countIn` reads back, as the database names them. */
export interface CountedColumns {
  readonly hits: ReadonlyArray<number>
  readonly refused: boolean
  readonly now_ms: number
}

export const countedOf = (row: CountedColumns): Counted => ({ hits: row.hits, refused: row.refused, nowMs: row.now_ms })

/** All SQL of the rate limiter; one statement per call, each atomic on its own. */
export class RateLimitRepo extends Effect.Service<RateLimitRepo>()("@tks/core/RateLimitRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The counting statement, for the key `keys` selects (its columns
     * `org_id` and `subject`; at most one row), on its own or as a CTE of a
     * larger statement (authentication counts the request in the statement
     * that reads the token). It counts `cost` in every window of the rule,
     * or in none: the windows (current ones by the database clock) are
     * counted in one row, and the update sees its latest version under the
     * row lock, so concurrent calls from any process are serialised. A
     * window that has moved on starts from 0. Returns the counts after the
     * call and whether it was refused (`CountedColumns`); no row when `keys`
     * selects none.
     */
    const countIn = (keys: Statement.Fragment, rule: string, windows: ReadonlyArray<RateLimitWindow>, cost: number) => {
      const seconds = windows.map((w) => w.seconds)
      const limits = windows.map((w) => w.limit)
      return sql<CountedColumns>`
        INSERT INTO rate_limit_counters AS c (org_id, rule, subject, window_seconds, window_starts, hits, refused, expires_at)
        SELECT k.org_id, ${rule}, k.subject, f.seconds, f.starts,
               array_fill(${cost}::int, ARRAY[cardinality(f.seconds)]), false, to_timestamp(f.ends)
        FROM (
          SELECT array_agg(w.s ORDER BY w.i) AS seconds,
                 array_agg(floor(clock.now_s / w.s)::bigint * w.s ORDER BY w.i) AS starts,
                 max(floor(clock.now_s / w.s)::bigint * w.s + w.s) AS ends
          FROM (SELECT extract(epoch FROM now()) AS now_s) clock,
               unnest(${seconds}::int[]) WITH ORDINALITY AS w(s, i)
        ) f, (${keys}) k
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
        RETURNING hits, refused, (extract(epoch FROM now()) * 1000)::float8 AS now_ms`
    }

    /** Counts `cost` for one key (see `countIn`). */
    const consume = (key: CounterKey, windows: ReadonlyArray<RateLimitWindow>, cost: number) =>
      direct(sql, countIn(sql`SELECT ${key.orgId}::text AS org_id, ${key.subject}::text AS subject`, key.rule, windows, cost)).pipe(
        Effect.map((rows) => countedOf(rows[0]!))
      )

    /** Forgets every counter whose longest window has ended. */
    /** How many counters it deleted. */
    const deleteExpired = sql<{ deleted: number }>`
      WITH deleted AS (DELETE FROM rate_limit_counters WHERE expires_at < now() RETURNING 1)
      SELECT count(*)::int AS deleted FROM deleted`.pipe(Effect.map(([row]) => row?.deleted ?? 0))

    return { countIn, consume, deleteExpired } as const
  })
}) {}
