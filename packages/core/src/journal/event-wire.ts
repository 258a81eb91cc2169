import { Schema } from "effect"
import { Event } from "@tks/domain/events"

/** An `events` row as read (jsonb columns parsed). */
export interface EventRow {
  readonly position: string
  readonly id: string
  readonly org_id: string
  readonly type: string
  readonly occurred_at: Date
  readonly actor: unknown
  readonly data: unknown
}

/** The columns `EventRow` needs, for a SELECT from `events`. */
export const eventColumns = "position::text AS position, id, org_id, type, occurred_at, actor, data"

// jsonb keeps an object's keys in its own order, not the schema's: each event is encoded again (a page is at most 100).
const encodeEvent = Schema.encodeUnknownSync(Event)

/**
 * An event as the feed lists it and a webhook delivers it: the row, written
 * from the catalogue's schemas (@tks/domain/events) by the journal, with its
 * keys in the schema's order.
 */
export const eventWire = (row: EventRow): Event =>
  encodeEvent({
    id: row.id,
    type: row.type,
    occurredAt: row.occurred_at.toISOString(),
    position: Number(row.position),
    organizationId: row.org_id,
    actor: row.actor,
    data: row.data
  }) as Event
