import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { newIds } from "../common/ids.js"

/** Events of one act, ready to write: parallel arrays, one entry per event. */
export interface EventBatch {
  readonly types: ReadonlyArray<string>
  /** Each event's `data` as JSON text, without `person` when `personIds` names one. */
  readonly data: ReadonlyArray<string>
  /** The person the event is about (its `data.person` is filled from the directory), or null. */
  readonly personIds: ReadonlyArray<string | null>
}

export interface AuditRow {
  readonly action: string
  readonly actorType: "person" | "system"
  readonly actorPersonId: string | null
  readonly actorTokenId: string | null
  readonly actorName: string | null
  readonly targets: ReadonlyArray<{ readonly type: string; readonly id: string }>
  readonly changes: string | null
  readonly requestId: string | null
  readonly clientIp: string | null
  readonly userAgent: string | null
}

/** The journal's writes: events and audit rows, in the caller's transaction. */
export class JournalRepo extends Effect.Service<JournalRepo>()("@tks/core/JournalRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Writes the events in one statement, in order, each with the person it
     * is about read from the directory, and answers their positions. The
     * transaction's id is taken before any position, so the feed's
     * visibility rule (migration 0020) holds for every row.
     */
    const insertEvents = (orgId: string, actor: string, batch: EventBatch) =>
      batch.types.length === 0 ? Effect.succeed([] as ReadonlyArray<{ readonly position: string }>) : sql<{ position: string }>`
        INSERT INTO events (id, org_id, type, tx, actor, data)
        SELECT d.id, ${orgId}, d.type, x.tx, ${actor}::jsonb,
          CASE WHEN u.id IS NULL THEN d.data::jsonb
            ELSE d.data::jsonb || jsonb_build_object('person', jsonb_build_object('id', u.id, 'name', u.name, 'email', u.email)) END
        FROM (SELECT pg_current_xact_id() AS tx) x
        CROSS JOIN unnest(${newIds("event", batch.types.length)}::text[], ${[...batch.types]}::text[], ${[...batch.data]}::text[], ${[
        ...batch.personIds
      ]}::text[]) WITH ORDINALITY AS d(id, type, data, person_id, n)
        LEFT JOIN users u ON u.org_id = ${orgId} AND u.id = d.person_id
        ORDER BY d.n
        RETURNING position::text AS position`

    const insertAudit = (orgId: string, row: AuditRow) =>
      sql`
        INSERT INTO audit_events (org_id, id, action, actor_type, actor_person_id, actor_token_id, actor_name,
          targets, target_ids, changes, request_id, client_ip, user_agent)
        VALUES (${orgId}, ${newIds("auditEvent", 1)[0]!}, ${row.action}, ${row.actorType}, ${row.actorPersonId}, ${row.actorTokenId},
          ${row.actorName}, ${JSON.stringify(row.targets)}::jsonb, ${row.targets.map((target) => target.id)}::text[],
          ${row.changes}::jsonb, ${row.requestId}, ${row.clientIp}, ${row.userAgent})`.pipe(Effect.asVoid)

    return { insertEvents, insertAudit } as const
  })
}) {}
