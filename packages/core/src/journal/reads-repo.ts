import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EVENT_RETENTION_DAYS } from "@tks/domain/events"
import { Schema } from "effect"
import { newestFirstBy, oldestFirstBy } from "../common/keyset.js"
import { eventColumns, type EventRow } from "./event-wire.js"

/** The feed's order: ascending position (a bigint, in text: digits only, so the cast in SQL cannot fail). */
export const byPosition = {
  key: Schema.String.pipe(Schema.pattern(/^\d{1,19}$/)),
  keyOf: (row: EventRow): string => row.position
} as const

/** Newest first by when the act happened. */
export const auditOrder = newestFirstBy("occurred_at")

/** Oldest first, for an export that walks the whole log. */
export const auditExportOrder = oldestFirstBy("occurred_at")

export interface AuditRowRead {
  readonly id: string
  readonly occurred_at: Date
  readonly created_us: string
  readonly action: string
  readonly actor_type: "person" | "system"
  readonly actor_person_id: string | null
  readonly actor_token_id: string | null
  readonly actor_name: string | null
  readonly targets: ReadonlyArray<{ readonly type: string; readonly id: string }>
  readonly changes: Record<string, { readonly old?: unknown; readonly new?: unknown }> | null
  readonly request_id: string | null
  readonly client_ip: string | null
  readonly user_agent: string | null
}

export interface AuditFilter {
  readonly orgId: string
  readonly actor: string | null
  readonly target: string | null
  readonly action: string | null
  readonly since: Date | null
  readonly until: Date | null
}

/** The reads of the event feed and the audit log, and their retention sweep. */
export class JournalReadsRepo extends Effect.Service<JournalReadsRepo>()("@tks/core/JournalReadsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The feed after a position, ascending (events_feed, or
     * events_feed_by_type). Only events every transaction before which has
     * ended: an event committed while an older transaction may still write a
     * lower position waits for it, so a reader resuming after the last
     * position it saw never skips one.
     */
    const feed = (input: { readonly orgId: string; readonly after: string | null; readonly type: string | null; readonly limit: number }) =>
      sql<EventRow>`
        SELECT ${sql.literal(eventColumns)}
        FROM events
        WHERE org_id = ${input.orgId}
          ${input.type === null ? sql`` : sql`AND type = ${input.type}`}
          ${input.after === null ? sql`` : sql`AND position > ${input.after}::bigint`}
          AND tx < pg_snapshot_xmin(pg_current_snapshot())
          AND occurred_at > now() - make_interval(days => ${EVENT_RETENTION_DAYS})
        -- The bigint column, not the select list's text alias of it (which would put 10 before 2).
        ORDER BY events.position
        LIMIT ${input.limit}`

    // Both orders key on the same microseconds column (created_us).
    const auditColumns = sql`a.id, a.occurred_at, ${auditOrder.column(sql, "a")}, a.action, a.actor_type, a.actor_person_id,
      a.actor_token_id, a.actor_name, a.targets, a.changes, a.request_id, a.client_ip, a.user_agent`

    /** Audit rows newest first with the filters given (each has its index; a target is found through target_ids). */
    const audit = (filter: AuditFilter, after: readonly [string, string] | null, limit: number) =>
      sql<AuditRowRead>`
        SELECT ${auditColumns}
        FROM audit_events a
        WHERE a.org_id = ${filter.orgId}
          ${filter.actor === null ? sql`` : sql`AND a.actor_person_id = ${filter.actor}`}
          ${filter.target === null ? sql`` : sql`AND a.target_ids @> ARRAY[${filter.target}]::text[]`}
          ${filter.action === null ? sql`` : sql`AND a.action = ${filter.action}`}
          ${filter.since === null ? sql`` : sql`AND a.occurred_at >= ${filter.since}`}
          ${filter.until === null ? sql`` : sql`AND a.occurred_at < ${filter.until}`}
          ${auditOrder.after(sql, "a", after)}
        ORDER BY a.occurred_at DESC, a.id DESC
        LIMIT ${limit}`

    /**
     * Audit rows oldest first in `[since, until)`, after `after`: one page of
     * an export's walk (audit_events_newest, read backwards).
     */
    const auditAscending = (
      range: { readonly orgId: string; readonly since: Date | null; readonly until: Date | null },
      after: readonly [string, string] | null,
      limit: number
    ) =>
      sql<AuditRowRead>`
        SELECT ${auditColumns}
        FROM audit_events a
        WHERE a.org_id = ${range.orgId}
          ${range.since === null ? sql`` : sql`AND a.occurred_at >= ${range.since}`}
          ${range.until === null ? sql`` : sql`AND a.occurred_at < ${range.until}`}
          ${auditExportOrder.after(sql, "a", after)}
        ORDER BY a.occurred_at, a.id
        LIMIT ${limit}`

    const organizationExists = (orgId: string) =>
      sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM organizations WHERE id = ${orgId}) AS found`.pipe(
        Effect.map((rows) => rows[0]?.found === true)
      )

    /** Forgets the events past the feed's retention; answers how many. */
    const deleteExpiredEvents = sql<{ deleted: number }>`
      WITH deleted AS (DELETE FROM events WHERE occurred_at < now() - make_interval(days => ${EVENT_RETENTION_DAYS}) RETURNING 1)
      SELECT count(*)::int AS deleted FROM deleted`.pipe(Effect.map(([row]) => row?.deleted ?? 0))

    return { feed, audit, auditAscending, organizationExists, deleteExpiredEvents } as const
  })
}) {}
