import type { SqlError } from "@effect/sql/SqlError"
import { Chunk, Effect, Option, Stream } from "effect"
import type { AuditEvent, AuditEventParams } from "@tks/domain/audit"
import { parseOffsetDateTime } from "@tks/domain/due-date"
import { NotFound } from "@tks/domain/errors"
import type { EventFeedParams } from "@tks/domain/events"
import type { Access } from "@tks/domain/policy"
import { Pagination } from "../common/pagination.js"
import { traced } from "../common/traced.js"
import { eventWire } from "./event-wire.js"
import { auditExportOrder, type AuditRowRead, auditOrder, byPosition, JournalReadsRepo } from "./reads-repo.js"

/** Rows an export reads at a time. */
const EXPORT_PAGE = 500

/** An audit row as every reader gets it: GET /v1/audit-events and the operator's export alike. */
export const auditView = (row: AuditRowRead): AuditEvent => ({
  id: row.id,
  occurredAt: row.occurred_at.toISOString(),
  action: row.action,
  actor: row.actor_type === "person"
    ? { type: "person", personId: row.actor_person_id ?? "", tokenId: row.actor_token_id }
    : { type: "system", name: row.actor_name ?? "system" },
  // Rebuilt in the schema's key order (jsonb keeps its own).
  targets: row.targets.map((target) => ({ type: target.type, id: target.id })),
  changes: row.changes === null ? null : Object.fromEntries(Object.entries(row.changes).map(([field, change]) => [field, {
    ...("old" in change ? { old: change.old } : {}),
    ...("new" in change ? { new: change.new } : {})
  }])),
  requestId: row.request_id,
  clientIp: row.client_ip,
  userAgent: row.user_agent
})

/**
 * The organization's event feed and audit log, for its admins (the
 * policies admit no one else). The feed pages by position, ascending, from
 * any position a reader names; the audit log newest first, with the usual
 * signed cursor bound to its filters.
 */
export class JournalReads extends Effect.Service<JournalReads>()("@tks/core/JournalReads", {
  effect: Effect.gen(function*() {
    const repo = yield* JournalReadsRepo
    const pagination = yield* Pagination

    const feed = traced("Journal.feed")(function*(access: Access, params: EventFeedParams) {
      const orgId = access.actor.organizationId
      const type = params.type ?? null
      const start = params.after ?? null
      return yield* pagination.page({
        // Bound to where the walk started too: a cursor resumes the walk it came from.
        listing: ["events", orgId, type, start],
        params,
        keyset: byPosition,
        rows: (after, limit) => repo.feed({ orgId, type, after: after ?? start, limit }),
        view: eventWire
      })
    })

    const audit = traced("Journal.audit")(function*(access: Access, params: AuditEventParams) {
      const filter = {
        orgId: access.actor.organizationId,
        actor: params.actor ?? null,
        target: params.target ?? null,
        action: params.type ?? null,
        since: params.since === undefined ? null : parseOffsetDateTime(params.since) ?? null,
        until: params.until === undefined ? null : parseOffsetDateTime(params.until) ?? null
      }
      return yield* pagination.page({
        listing: ["audit-events", filter.orgId, filter.actor, filter.target, filter.action, params.since ?? null, params.until ?? null],
        params,
        keyset: auditOrder,
        rows: (after, limit) => repo.audit(filter, after, limit),
        view: auditView
      })
    })

    /**
     * The organization's audit log, oldest first, for the operator's export
     * (`cli audit export`): only acts at or after `since` and before
     * `until`, when given. A stream of pages walked by (occurred_at, id),
     * each read only when the one before has been taken, so the log is never
     * held whole. An unknown organization is NotFound.
     */
    const auditExport = (
      range: { readonly orgId: string; readonly since: Date | null; readonly until: Date | null },
      pageSize = EXPORT_PAGE
    ): Stream.Stream<AuditEvent, NotFound | SqlError> =>
      Stream.unwrap(Effect.gen(function*() {
        if (!(yield* repo.organizationExists(range.orgId))) return yield* new NotFound({ message: "No such organization" })
        return Stream.paginateChunkEffect(null as readonly [string, string] | null, (after) =>
          Effect.map(repo.auditAscending(range, after, pageSize), (rows) => {
            const last = rows[rows.length - 1]
            const next = rows.length === pageSize && last !== undefined ? Option.some(auditExportOrder.keyOf(last)) : Option.none()
            return [Chunk.fromIterable(rows.map(auditView)), next] as const
          }))
      }))

    return { feed, audit, auditExport } as const
  }),
  dependencies: [JournalReadsRepo.Default, Pagination.Default]
}) {}
