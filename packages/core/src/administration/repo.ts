import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DirectoryConnectionStatus, DirectoryOperation, DirectoryOutcome } from "@tks/domain/administration"

/**
 * A keyset position in a newest-first listing: the row's created_at as text
 * with microseconds (exact, unlike a JS Date) and its id.
 */
export type NewestKey = readonly [at: string, id: string]

/** created_at rendered exactly (microseconds, UTC), for cursors. */
const exactAt = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"

export interface FindingRow {
  readonly id: string
  readonly content: string
  readonly source_type: "user" | "system"
  readonly system_source_type: "web_analysis" | "research_conversation" | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly cursor_at: string
}

/** The record (absent fields null when the organization has none) and the database's clock. */
export interface VerificationRow {
  readonly last_verified_at: Date | null
  readonly interval_days: number | null
  readonly now: Date
}

export interface DirectoryConnectionRow {
  readonly status: DirectoryConnectionStatus
  readonly token_exists: boolean
  readonly token_created_at: Date | null
  readonly token_last_used_at: Date | null
  readonly token_expires_at: Date | null
  readonly token_revoked_at: Date | null
  readonly last_sync_at: Date | null
  readonly paused_at: Date | null
  readonly paused_reason: string | null
  readonly send_welcome_immediately: boolean
  readonly count_provisioned: number
  readonly count_updated: number
  readonly count_deactivated: number
  readonly count_skipped: number
  readonly created_at: Date
}

export interface DirectorySyncRow {
  readonly plan: "starter" | "pro" | "enterprise"
  readonly connection: DirectoryConnectionRow | undefined
  /** The database's clock, the one token checks compare against. */
  readonly now: Date
}

export interface DirectoryEventRow {
  readonly id: string
  readonly operation: DirectoryOperation
  readonly outcome: DirectoryOutcome
  readonly reason: string | null
  readonly user_name: string | null
  readonly created_at: Date
  readonly cursor_at: string
}

/** SQL of the administration reads (SPEC 4.8). Every query is scoped by organization. */
export class AdministrationRepo extends Effect.Service<AdministrationRepo>()("@tks/core/AdministrationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const before = (after: NewestKey | null) =>
      after === null ? sql`` : sql`AND (created_at, id) < (${after[0]}::timestamptz, ${after[1]})`

    /** Findings newest first (index findings_newest). The author column is never read. */
    const findings = (input: { readonly orgId: string; readonly after: NewestKey | null; readonly limit: number }) =>
      sql<FindingRow>`
        SELECT id, content, source_type, system_source_type, created_at, updated_at, ${sql.literal(exactAt)} AS cursor_at
        FROM findings
        WHERE org_id = ${input.orgId} ${before(input.after)}
        ORDER BY created_at DESC, id DESC
        LIMIT ${input.limit + 1}`

    /** The organization's verification record (nulls when there is none) and the database's now(). */
    const verification = (orgId: string) =>
      sql<VerificationRow>`
        SELECT v.last_verified_at, v.interval_days, now() AS now
        FROM organizations o LEFT JOIN org_chart_verifications v ON v.org_id = o.id
        WHERE o.id = ${orgId}`.pipe(Effect.map((rows) => rows[0]))

    /** The plan and the connection (if any) in one round trip; the token hash itself is never read out. */
    const directorySync = (orgId: string) =>
      sql<
        DirectoryConnectionRow & { readonly plan: DirectorySyncRow["plan"]; readonly has_connection: boolean; readonly now: Date }
      >`
        SELECT o.plan, now() AS now, (c.org_id IS NOT NULL) AS has_connection, c.status,
          (c.token_hash IS NOT NULL) AS token_exists, c.token_created_at, c.token_last_used_at,
          c.token_expires_at, c.token_revoked_at, c.last_sync_at, c.paused_at, c.paused_reason,
          c.send_welcome_immediately, c.count_provisioned, c.count_updated, c.count_deactivated,
          c.count_skipped, c.created_at
        FROM organizations o LEFT JOIN directory_connections c ON c.org_id = o.id
        WHERE o.id = ${orgId}`.pipe(
        Effect.map((rows): DirectorySyncRow | undefined => {
          const row = rows[0]
          if (row === undefined) return undefined
          const { has_connection, now, plan, ...connection } = row
          return { plan, now, connection: has_connection ? connection : undefined }
        })
      )

    /** Directory events newest first, optionally of one outcome (indexes directory_events_newest / _by_outcome). */
    const directoryEvents = (input: {
      readonly orgId: string
      readonly outcome: DirectoryOutcome | null
      readonly after: NewestKey | null
      readonly limit: number
    }) =>
      sql<DirectoryEventRow>`
        SELECT id, operation, outcome, reason, user_name, created_at, ${sql.literal(exactAt)} AS cursor_at
        FROM directory_events
        WHERE org_id = ${input.orgId}
          ${input.outcome === null ? sql`` : sql`AND outcome = ${input.outcome}`}
          ${before(input.after)}
        ORDER BY created_at DESC, id DESC
        LIMIT ${input.limit + 1}`

    return { findings, verification, directorySync, directoryEvents } as const
  })
}) {}
