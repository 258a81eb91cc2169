import { Effect } from "effect"
import type { AuditEvent, AuditEventParams } from "@tks/domain/audit"
import { parseOffsetDateTime } from "@tks/domain/due-date"
import type { EventFeedPage, EventFeedParams } from "@tks/domain/events"
import { defaultLimit } from "@tks/domain/pagination"
import type { Access } from "@tks/domain/policy"
import { Pagination } from "../common/pagination.js"
import { traced } from "../common/traced.js"
import { eventWire } from "./event-wire.js"
import { type AuditRowRead, auditOrder, JournalReadsRepo } from "./reads-repo.js"

const auditView = (row: AuditRowRead): AuditEvent => ({
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
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.feed({
        orgId: access.actor.organizationId,
        after: params.after ?? null,
        type: params.type ?? null,
        limit
      })
      const last = rows[rows.length - 1]
      const page: EventFeedPage = {
        data: rows.map(eventWire),
        nextCursor: rows.length === limit && last !== undefined ? last.position : null
      }
      return page
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

    return { feed, audit } as const
  }),
  dependencies: [JournalReadsRepo.Default, Pagination.Default]
}) {}
