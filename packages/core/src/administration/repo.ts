import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DirectoryConnectionStatus, DirectoryOperation, DirectoryOutcome } from "@tks/domain/administration"
import type { OrganizationId } from "@tks/domain/ids"
import { newestFirst } from "../common/keyset.js"

type NewestKey = readonly [string, string]

interface FindingRow {
  readonly id: string
  readonly content: string
  readonly source_type: "user" | "system"
  readonly system_source_type: "web_analysis" | "research_conversation" | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly created_us: string
}

/** The record (absent fields null when the organization has none) and the database's clock. */
interface VerificationRow {
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

interface DirectorySyncRow {
  readonly plan: "starter" | "pro" | "enterprise"
  readonly connection: DirectoryConnectionRow | undefined
  /** The database's clock, the one token checks compare against. */
  readonly now: Date
}

interface DirectoryEventRow {
  readonly id: string
  readonly operation: DirectoryOperation
  readonly outcome: DirectoryOutcome
  readonly reason: string | null
  readonly user_name: string | null
  readonly created_at: Date
  readonly created_us: string
}

/** SQL of the administration reads. Every query is scoped by organization. */
export class AdministrationRepo extends Effect.Service<AdministrationRepo>()("@tks/core/AdministrationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** Findings newest first (index findings_newest). The author column is never read. */
    const findings = (input: { readonly orgId: OrganizationId; readonly after: NewestKey | null; readonly limit: number }) =>
      sql<FindingRow>`
        SELECT f.id, f.content, f.source_type, f.system_source_type, f.created_at, f.updated_at, ${newestFirst.column(sql, "f")}
        FROM findings f
        WHERE f.org_id = ${input.orgId} ${newestFirst.after(sql, "f", input.after)}
        ORDER BY f.created_at DESC, f.id DESC
        LIMIT ${input.limit}`

    /** The organization's verification record (nulls when there is none) and the database's now(). */
    const verification = (orgId: OrganizationId) =>
      sql<VerificationRow>`
        SELECT v.last_verified_at, v.interval_days, now() AS now
        FROM organizations o LEFT JOIN org_chart_verifications v ON v.org_id = o.id
        WHERE o.id = ${orgId}`.pipe(Effect.map((rows) => rows[0]))

    /** The plan and the connection (if any) in one round trip; the token hash itself is never read out. */
    const directorySync = (orgId: OrganizationId) =>
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
      readonly orgId: OrganizationId
      readonly outcome: DirectoryOutcome | null
      readonly after: NewestKey | null
      readonly limit: number
    }) =>
      sql<DirectoryEventRow>`
        SELECT e.id, e.operation, e.outcome, e.reason, e.user_name, e.created_at, ${newestFirst.column(sql, "e")}
        FROM directory_events e
        WHERE e.org_id = ${input.orgId}
          ${input.outcome === null ? sql`` : sql`AND e.outcome = ${input.outcome}`}
          ${newestFirst.after(sql, "e", input.after)}
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT ${input.limit}`

    return { findings, verification, directorySync, directoryEvents } as const
  })
}) {}
