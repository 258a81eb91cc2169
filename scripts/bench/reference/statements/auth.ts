import { type Fragment, ident, sql } from "../sql.js"

// Mirrors packages/core/src/auth/repo.ts, rate-limits/repo.ts (countIn) and
// shared/instance-settings-repo.ts: the statements every authenticated
// request runs, and the cursor secret read at start.

export interface RateLimitWindow {
  readonly seconds: number
  readonly limit: number
}

const countIn = (keys: Fragment, rule: string, windows: ReadonlyArray<RateLimitWindow>, cost: number) => {
  const seconds = windows.map((w) => w.seconds)
  const limits = windows.map((w) => w.limit)
  return sql`
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

/** One key's count against a per-route rule (RateLimitRepo.consume): the learning queue's. */
export const consume = (orgId: string, rule: string, subject: string, windows: ReadonlyArray<RateLimitWindow>, cost: number) =>
  countIn(sql`SELECT ${orgId}::text AS org_id, ${subject}::text AS subject`, rule, windows, cost)

const teamsOf = (orgColumn: string, userColumn: string) =>
  sql`COALESCE((SELECT json_agg(json_build_object('teamId', tm.team_id, 'role', tm.role))
                      FROM team_members tm WHERE tm.org_id = ${ident(orgColumn)} AND tm.user_id = ${ident(userColumn)}), '[]')`

const liveToken = (tokenHash: string) =>
  sql`SELECT t.id AS token_id, t.org_id, t.user_id, u.org_role, t.scopes,
            (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS last_used_stale,
            ${teamsOf("t.org_id", "t.user_id")} AS teams
          FROM access_tokens t
          JOIN users u ON u.org_id = t.org_id AND u.id = t.user_id
          WHERE t.token_hash = ${tokenHash}
            AND t.revoked_at IS NULL
            AND (t.expires_at IS NULL OR t.expires_at > now())
            AND u.status = 'ACTIVE'`

/**
 * The token's owner, counted against the token's default limit and its use
 * recorded (to the minute) in the same statement (AuthRepo.findLiveToken).
 */
export const findLiveToken = (tokenHash: string, rule: string, windows: ReadonlyArray<RateLimitWindow>) =>
  sql`
        WITH token AS (${liveToken(tokenHash)}), counted AS (
          ${countIn(sql`SELECT org_id, token_id AS subject FROM token`, rule, windows, 1)}
        ), touched AS (
          UPDATE access_tokens a SET last_used_at = now()
          FROM token WHERE token.last_used_stale AND a.org_id = token.org_id AND a.id = token.token_id
        )
        SELECT token.*, counted.hits, counted.refused, counted.now_ms FROM token CROSS JOIN counted`

/** The cursor signing secret every replica shares (InstanceSettingsRepo.getOrCreate). */
export const storeSetting = (key: string, candidate: string) =>
  sql`INSERT INTO instance_settings (key, value) VALUES (${key}, ${candidate}) ON CONFLICT (key) DO NOTHING`
export const readSetting = (key: string) => sql`SELECT value FROM instance_settings WHERE key = ${key}`
