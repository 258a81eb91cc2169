import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import { newId } from "../common/ids.js"

/** How a reserved narration ended: kept against the allowance, or given back. */
type KeptOutcome = "COMPLETED" | "TIMINGS_UNREADABLE"
type GivenBackOutcome = "PROVIDER_FAILED" | "CANCELLED"

interface ReservationInput {
  readonly orgId: string
  readonly tokenId: string
  readonly userId: string
  readonly characters: number
  readonly voiceId: string
  readonly provider: string
}

export type Reservation =
  | { readonly _tag: "Reserved"; readonly requestId: string; readonly used: number }
  | { readonly _tag: "Refused"; readonly nowMs: number }

interface MonthUsage {
  readonly month: string
  readonly used: number
  readonly reserved: number
  readonly completed: number
  readonly providerFailed: number
  readonly timingsUnreadable: number
  readonly quotaExceeded: number
  readonly released: number
  readonly nowMs: number
}

// The current UTC month's first day, by the database clock (every process agrees on the month).
const currentMonth = "date_trunc('month', now() AT TIME ZONE 'UTC')::date"

/** All SQL of narration; each statement atomic on its own. */
export class NarrationRepo extends Effect.Service<NarrationRepo>()("@tks/core/NarrationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const month = sql.literal(currentMonth)

    /**
     * Reserves the characters in this month's allowance and records the
     * request, in one statement: the allowance row's lock serialises every
     * reservation of the organization, from any process, and its WHERE
     * refuses a total past the allowance. A refused request is recorded as
     * QUOTA_EXCEEDED and reserves nothing.
     */
    const reserve = (input: ReservationInput, limit = narrationMonthlyAllowance) => {
      const id = newId("narrationRequest")
      return sql<{ used: number | null; now_ms: number }>`
        WITH m AS (SELECT ${month} AS month),
        bump AS (
          INSERT INTO narration_allowances AS a (org_id, month, used)
          SELECT ${input.orgId}, m.month, ${input.characters}::int FROM m WHERE ${input.characters}::int <= ${limit}::int
          ON CONFLICT (org_id, month) DO UPDATE SET used = a.used + excluded.used
          WHERE a.used + excluded.used <= ${limit}::int
          RETURNING a.used
        ),
        recorded AS (
          INSERT INTO narration_requests (org_id, id, token_id, user_id, month, characters, voice_id, provider, outcome, settled_at)
          SELECT ${input.orgId}, ${id}, ${input.tokenId}, ${input.userId}, m.month, ${input.characters}, ${input.voiceId}, ${input.provider},
                 CASE WHEN b.used IS NULL THEN 'QUOTA_EXCEEDED' ELSE 'RESERVED' END,
                 CASE WHEN b.used IS NULL THEN now() END
          FROM m LEFT JOIN bump b ON true
          RETURNING id
        )
        SELECT (SELECT used FROM bump) AS used, (SELECT count(*) FROM recorded)::int AS recorded,
               (extract(epoch FROM now()) * 1000)::float8 AS now_ms`.pipe(
        Effect.map(([row]): Reservation =>
          row!.used === null
            ? { _tag: "Refused", nowMs: row!.now_ms }
            : { _tag: "Reserved", requestId: id, used: row!.used }
        )
      )
    }

    /**
     * Settles a reservation whose characters stay counted: the month they
     * count in (`YYYY-MM`) and how many, or undefined when it was no longer
     * open (reaped).
     */
    const keep = (orgId: string, requestId: string, outcome: KeptOutcome) =>
      sql<{ month: string; characters: number }>`
        UPDATE narration_requests SET outcome = ${outcome}, settled_at = now()
        WHERE org_id = ${orgId} AND id = ${requestId} AND outcome = 'RESERVED'
        RETURNING to_char(month, 'YYYY-MM') AS month, characters`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Whether the characters kept in a month (`YYYY-MM`) fill its allowance:
     * the count less what is still only reserved. Kept characters are never
     * given back, so once they fill it every later request of the month is
     * refused; it is reached by exactly one settlement. Two statements, in
     * the settling transaction: the month's row is locked first, so
     * settlements at the same time are judged one after the other, each
     * seeing those before it. The settlement has its request locked already:
     * a request, then the month's row, the order giving back and the reaper
     * take them in too.
     */
    const allowanceFilled = (orgId: string, month: string, limit = narrationMonthlyAllowance) =>
      Effect.gen(function*() {
        const at = sql`to_date(${month}, 'YYYY-MM')`
        const [row] = yield* sql<{ used: number }>`
          SELECT used FROM narration_allowances WHERE org_id = ${orgId} AND month = ${at} FOR UPDATE`
        if (row === undefined) return false
        const [open] = yield* sql<{ reserved: number }>`
          SELECT coalesce(sum(characters), 0)::int AS reserved FROM narration_requests
          WHERE org_id = ${orgId} AND month = ${at} AND outcome = 'RESERVED'`
        return row.used - (open?.reserved ?? 0) >= limit
      })

    /**
     * Settles a reservation and gives its characters back to the month it
     * was reserved in, in one statement; a reservation already settled (or
     * reaped) gives nothing back twice.
     */
    const giveBack = (orgId: string, requestId: string, outcome: GivenBackOutcome) =>
      sql<{ settled: number }>`
        WITH settled AS (
          UPDATE narration_requests SET outcome = ${outcome}, settled_at = now()
          WHERE org_id = ${orgId} AND id = ${requestId} AND outcome = 'RESERVED'
          RETURNING org_id, month, characters
        ), returned AS (
          UPDATE narration_allowances a SET used = a.used - s.characters
          FROM settled s WHERE a.org_id = s.org_id AND a.month = s.month
          RETURNING a.used
        )
        SELECT count(*)::int AS settled FROM settled`.pipe(Effect.map(([row]) => row!.settled === 1))

    /**
     * The reaper's statement: reservations open longer than `olderThanMs`
     * belong to requests that died; each is marked EXPIRED and its
     * characters given back, at most `batch` at a time. Rows another process
     * is settling or reaping are skipped, never given back twice.
     */
    const reapExpired = (olderThanMs: number, batch = 500) =>
      sql<{ reaped: number; characters: number }>`
        WITH expired AS (
          UPDATE narration_requests r SET outcome = 'EXPIRED', settled_at = now()
          WHERE (r.org_id, r.id) IN (
            SELECT org_id, id FROM narration_requests
            WHERE outcome = 'RESERVED' AND requested_at < now() - make_interval(secs => ${olderThanMs / 1000})
            ORDER BY requested_at LIMIT ${batch}
            FOR UPDATE SKIP LOCKED
          ) AND r.outcome = 'RESERVED'
          RETURNING r.org_id, r.month, r.characters
        ), totals AS (
          SELECT org_id, month, sum(characters)::int AS characters FROM expired GROUP BY org_id, month
        ), returned AS (
          UPDATE narration_allowances a SET used = a.used - t.characters
          FROM totals t WHERE a.org_id = t.org_id AND a.month = t.month
          RETURNING a.org_id
        )
        SELECT count(*)::int AS reaped, coalesce(sum(characters), 0)::int AS characters FROM expired`.pipe(
        Effect.map(([row]) => row!)
      )

    /** This month's allowance use and requests by outcome. */
    const monthUsage = (orgId: string) =>
      sql<{
        month: string
        used: number
        reserved: number
        completed: number
        provider_failed: number
        timings_unreadable: number
        quota_exceeded: number
        released: number
        now_ms: number
      }>`
        WITH m AS (SELECT ${month} AS month)
        SELECT to_char(m.month, 'YYYY-MM') AS month,
               coalesce((SELECT used FROM narration_allowances WHERE org_id = ${orgId} AND month = m.month), 0) AS used,
               coalesce(sum(r.characters) FILTER (WHERE r.outcome = 'RESERVED'), 0)::int AS reserved,
               count(*) FILTER (WHERE r.outcome = 'COMPLETED')::int AS completed,
               count(*) FILTER (WHERE r.outcome = 'PROVIDER_FAILED')::int AS provider_failed,
               count(*) FILTER (WHERE r.outcome = 'TIMINGS_UNREADABLE')::int AS timings_unreadable,
               count(*) FILTER (WHERE r.outcome = 'QUOTA_EXCEEDED')::int AS quota_exceeded,
               count(*) FILTER (WHERE r.outcome IN ('CANCELLED', 'EXPIRED'))::int AS released,
               (extract(epoch FROM now()) * 1000)::float8 AS now_ms
        FROM m LEFT JOIN narration_requests r ON r.org_id = ${orgId} AND r.month = m.month
        GROUP BY m.month`.pipe(
        Effect.map(([row]): MonthUsage => ({
          month: row!.month,
          used: row!.used,
          reserved: row!.reserved,
          completed: row!.completed,
          providerFailed: row!.provider_failed,
          timingsUnreadable: row!.timings_unreadable,
          quotaExceeded: row!.quota_exceeded,
          released: row!.released,
          nowMs: row!.now_ms
        }))
      )

    return { reserve, keep, allowanceFilled, giveBack, reapExpired, monthUsage } as const
  })
}) {}
