import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { AuditAction, AuditChange, AuditTarget } from "@tks/domain/audit"
import type { Caller } from "@tks/domain/caller"
import type { EventActor, EventDataOf, EventType } from "@tks/domain/events"
import { RequestOrigin } from "@tks/domain/request-origin"
import { WebhookFanout } from "../webhooks/fanout.js"
import { type EventBatch, JournalRepo } from "./repo.js"

/** An event's data as an act writes it: `person` is filled by the journal from `personId`. */
type Written<T extends EventType> = "person" extends keyof EventDataOf<T> ? Omit<EventDataOf<T>, "person"> : EventDataOf<T>

/** One event an act emits. */
export type EventDraft = {
  readonly [T in EventType]: {
    readonly type: T
    readonly data: Written<T>
    /** The person the event is about, whose id, name and email become `data.person`. */
    readonly personId?: string
  }
}[EventType]

/** What an act records: one audit row, and the events it emits (any number, written set-based). */
export interface ActRecord {
  readonly caller: Caller
  readonly orgId: string
  /** The act's name in the audit log; the type of its first event when it emits any. */
  readonly action: AuditAction
  readonly targets: ReadonlyArray<AuditTarget>
  /** The fields it changed (old and new values); never a secret. */
  readonly changes?: Readonly<Record<string, AuditChange>> | undefined
  readonly events?: ReadonlyArray<EventDraft> | undefined
}

export const eventActorOf = (caller: Caller): EventActor =>
  caller._tag === "Person"
    ? { type: "person", personId: caller.access.actor.userId, tokenId: caller.access.actor.tokenId }
    : { type: "system", name: caller.name }

const batchOf = (events: ReadonlyArray<EventDraft>): EventBatch => {
  const types = new Array<string>(events.length)
  const data = new Array<string>(events.length)
  const personIds = new Array<string | null>(events.length)
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!
    types[i] = event.type
    data[i] = JSON.stringify(event.data)
    personIds[i] = event.personId ?? null
  }
  return { types, data, personIds }
}

/** The changes that are changes: a field whose old and new values are equal is left out. */
const realChanges = (changes: Readonly<Record<string, AuditChange>> | undefined): string | null => {
  if (changes === undefined) return null
  const kept: Record<string, AuditChange> = {}
  let any = false
  for (const [field, change] of Object.entries(changes)) {
    if ("old" in change && "new" in change && JSON.stringify(change.old) === JSON.stringify(change.new)) continue
    kept[field] = change
    any = true
  }
  return any ? JSON.stringify(kept) : null
}

/**
 * The one way an act leaves a trace (docs/domain.md, Events and the audit
 * log): its audit row, its events and the webhook fan-out of those events
 * (a job per subscribed endpoint), written in the act's own transaction, so
 * they exist exactly when the change committed and none can disagree with
 * another. Every transport's acts go through it.
 */
export class Journal extends Effect.Service<Journal>()("@tks/core/Journal", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* JournalRepo
    const fanout = yield* WebhookFanout

    /** Writes the act's audit row and events; answers the events' feed positions. */
    const record = (act: ActRecord): Effect.Effect<ReadonlyArray<string>, SqlError> =>
      Effect.gen(function*() {
        const origin = yield* RequestOrigin
        const actor = eventActorOf(act.caller)
        const person = act.caller._tag === "Person" ? act.caller.access.actor : null
        yield* repo.insertAudit(act.orgId, {
          action: act.action,
          actorType: actor.type,
          actorPersonId: person?.userId ?? null,
          actorTokenId: person?.tokenId ?? null,
          actorName: act.caller._tag === "System" ? act.caller.name : null,
          targets: act.targets,
          changes: realChanges(act.changes),
          requestId: origin.requestId,
          clientIp: origin.clientIp,
          userAgent: origin.userAgent
        })
        const events = act.events ?? []
        if (events.length === 0) return []
        const batch = batchOf(events)
        const written = yield* repo.insertEvents(act.orgId, JSON.stringify(actor), batch)
        const positions = written.map((row) => row.position)
        yield* fanout.fanOut(act.orgId, positions, batch.types)
        return positions
      }).pipe(sql.withTransaction)

    return { record } as const
  }),
  dependencies: [JournalRepo.Default, WebhookFanout.Default]
}) {}
