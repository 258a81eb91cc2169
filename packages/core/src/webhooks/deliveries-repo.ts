import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { WebhookDeliveryStatus, WebhookPing } from "@tks/domain/webhooks"
import { newId, newIds } from "../common/ids.js"
import { newestFirst } from "../common/keyset.js"
import type { EventRow } from "../journal/event-wire.js"
import type { FanoutSpan } from "./span.js"

export interface DeliveryRef {
  readonly orgId: OrganizationId
  readonly id: string
}

/** A delivery as its log shows it. */
export interface DeliveryRow {
  readonly id: string
  readonly endpoint_id: string
  readonly event_id: string
  readonly event_type: string
  readonly event_position: string | null
  readonly status: WebhookDeliveryStatus
  readonly attempts: number
  readonly response_status: number | null
  readonly latency_ms: number | null
  readonly response_body: string | null
  readonly error: string | null
  readonly next_attempt_at: Date | null
  readonly created_at: Date
  readonly delivered_at: Date | null
  readonly created_us: string
}

/** A delivery as an attempt needs it: where to, signed with what, and the body's source. */
export interface DeliveryToSend {
  readonly id: string
  readonly status: WebhookDeliveryStatus
  readonly endpoint_id: string
  readonly event_id: string
  readonly url: string
  readonly endpoint_disabled: boolean
  /** The current secret, then the previous one while it still signs. */
  readonly secrets: ReadonlyArray<string>
  /** A ping's whole body. */
  readonly payload: unknown
  /** The event, when it is one and the feed still keeps it. */
  readonly event: EventRow | null
}

interface LoadedRow extends Omit<DeliveryToSend, "event"> {
  readonly ev_position: string | null
  readonly ev_id: string | null
  readonly ev_type: string | null
  readonly ev_occurred_at: Date | null
  readonly ev_actor: unknown
  readonly ev_data: unknown
}

/**
 * What became of one delivery of a batch: its attempt (null: none was made,
 * `error` says why), its new status, and for one left PENDING the wait
 * before the next attempt.
 */
export interface Settlement {
  readonly id: string
  readonly attempt: AttemptRecord | null
  readonly status: WebhookDeliveryStatus
  readonly error: string | null
  readonly retryInMs: number | null
}

/** What one attempt got: an answer (any status), or none (`status` null) and why. */
export interface AttemptRecord {
  readonly status: number | null
  readonly latencyMs: number
  readonly body: string | null
  readonly error: string | null
}

/**
 * The deliveries (migration 0021): written set-based by the fan-out and one
 * at a time by a test ping, read by the log and by delivery. Every change of
 * status is conditional on the row still being PENDING, so a delivery is
 * settled once however many workers reach it; a replay makes it PENDING
 * again.
 */
export class WebhookDeliveriesRepo extends Effect.Service<WebhookDeliveriesRepo>()("@tks/core/WebhookDeliveriesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`d.id, d.endpoint_id, d.event_id, d.event_type, d.event_position::text AS event_position, d.status, d.attempts,
      d.response_status, d.latency_ms, d.response_body, d.error, d.next_attempt_at, d.created_at, d.delivered_at,
      ${newestFirst.column(sql, "d")}`

    /**
     * One delivery to the endpoint for each event of the organization with a
     * position in [first, last] of a type it subscribes to, while it is
     * enabled; an event it already has is passed over
     * (webhook_deliveries_once). The span is an act's (its positions are
     * nearly consecutive), so the read is an index range of its events,
     * however long the feed; another act's events in it go out with
     * whichever fan-out comes first. Two statements: the events, then one
     * INSERT from their arrays, however many; a join of the events to the
     * ids by row number was planned as a nested loop on a table without
     * statistics (20,000 x 20,000 pairs, past the statement timeout).
     * Answers the event positions of the deliveries written.
     */
    const fanOut = (orgId: OrganizationId, endpointId: string, span: FanoutSpan): Effect.Effect<ReadonlyArray<string>, SqlError> =>
      Effect.gen(function*() {
        const events = yield* sql<{ position: string; id: string; type: string }>`
          SELECT e.position::text AS position, e.id, e.type
          FROM events e
          JOIN webhook_endpoints ep ON ep.org_id = e.org_id AND ep.id = ${endpointId}
            AND ep.disabled_at IS NULL AND e.type = ANY(ep.event_types)
          WHERE e.org_id = ${orgId} AND e.position BETWEEN ${span.first}::bigint AND ${span.last}::bigint`
        if (events.length === 0) return [] as ReadonlyArray<string>
        const written = yield* sql<{ position: string }>`
          INSERT INTO webhook_deliveries (org_id, id, endpoint_id, event_position, event_id, event_type)
          SELECT ${orgId}, made.id, ${endpointId}, made.position, made.event_id, made.type
          FROM unnest(${newIds("webhookDelivery", events.length)}::text[], ${events.map((event) => event.position)}::bigint[],
            ${events.map((event) => event.id)}::text[], ${events.map((event) => event.type)}::text[]) AS made(id, position, event_id, type)
          ON CONFLICT (org_id, endpoint_id, event_position) WHERE event_position IS NOT NULL DO NOTHING
          RETURNING event_position::text AS position`
        return written.map((row) => row.position)
      })

    const insertPing = (orgId: OrganizationId, endpointId: string, ping: WebhookPing) =>
      sql<DeliveryRow>`
        INSERT INTO webhook_deliveries AS d (org_id, id, endpoint_id, event_id, event_type, payload)
        VALUES (${orgId}, ${newId("webhookDelivery")}, ${endpointId}, ${ping.id}, ${ping.type}, ${JSON.stringify(ping)}::jsonb)
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!))

    /** An endpoint's deliveries newest first (webhook_deliveries_newest, or _failed for FAILED), after `after`. */
    const page = (
      orgId: OrganizationId,
      endpointId: string,
      status: WebhookDeliveryStatus | null,
      after: readonly [string, string] | null,
      limit: number
    ) =>
      sql<DeliveryRow>`
        SELECT ${columns} FROM webhook_deliveries d
        WHERE d.org_id = ${orgId} AND d.endpoint_id = ${endpointId}
          ${status === null ? sql`` : sql`AND d.status = ${status}`}
          ${newestFirst.after(sql, "d", after)}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${limit}`

    /** A delivery with whether its endpoint is disabled now. */
    const find = (ref: DeliveryRef) =>
      sql<DeliveryRow & { readonly endpoint_disabled: boolean }>`
        SELECT ${columns}, ep.disabled_at IS NOT NULL AS endpoint_disabled
        FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.org_id = d.org_id AND ep.id = d.endpoint_id
        WHERE d.org_id = ${ref.orgId} AND d.id = ${ref.id}`.pipe(Effect.map((rows) => rows[0]))

    const toSendColumns = sql`d.id, d.status, d.endpoint_id, d.event_id, ep.url, ep.disabled_at IS NOT NULL AS endpoint_disabled,
      CASE WHEN ep.previous_secret_expires_at > now() THEN ARRAY[ep.secret, ep.previous_secret] ELSE ARRAY[ep.secret] END AS secrets,
      d.payload, e.position::text AS ev_position, e.id AS ev_id, e.type AS ev_type, e.occurred_at AS ev_occurred_at,
      e.actor AS ev_actor, e.data AS ev_data`
    const toSendFrom = sql`webhook_deliveries d
      JOIN webhook_endpoints ep ON ep.org_id = d.org_id AND ep.id = d.endpoint_id
      LEFT JOIN events e ON e.position = d.event_position AND e.org_id = d.org_id`
    const toSend = (orgId: OrganizationId) => (row: LoadedRow): DeliveryToSend => ({
      id: row.id,
      status: row.status,
      endpoint_id: row.endpoint_id,
      event_id: row.event_id,
      url: row.url,
      endpoint_disabled: row.endpoint_disabled,
      secrets: row.secrets,
      payload: row.payload,
      event: row.ev_position === null ? null : {
        position: row.ev_position,
        id: row.ev_id!,
        org_id: orgId,
        type: row.ev_type!,
        occurred_at: row.ev_occurred_at!,
        actor: row.ev_actor,
        data: row.ev_data
      }
    })

    /** The delivery with its endpoint's address and secrets, and its event when the feed still keeps it. */
    const load = (ref: DeliveryRef) =>
      sql<LoadedRow>`SELECT ${toSendColumns} FROM ${toSendFrom} WHERE d.org_id = ${ref.orgId} AND d.id = ${ref.id}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSend(ref.orgId)))
      )

    /**
     * The endpoint's deliveries of the events in `span` that still wait for
     * their first attempt (PENDING, never tried), in feed order: what a
     * batch sends (webhook_deliveries_once). One tried already belongs to
     * its own retry job, so a batch run again sends only what the last run
     * did not record.
     */
    const firstAttempts = (orgId: OrganizationId, endpointId: string, span: FanoutSpan) =>
      sql<LoadedRow>`
        SELECT ${toSendColumns} FROM ${toSendFrom}
        WHERE d.org_id = ${orgId} AND d.endpoint_id = ${endpointId}
          AND d.event_position BETWEEN ${span.first}::bigint AND ${span.last}::bigint
          AND d.status = 'PENDING' AND d.attempts = 0
        ORDER BY d.event_position`.pipe(Effect.map((rows) => rows.map(toSend(orgId))))

    /** The attempt's record; `error` as the attempt says, unless the outcome has a reason of its own. */
    const attempted = (attempt: AttemptRecord, error: string | null = attempt.error) =>
      sql`attempts = attempts + 1, response_status = ${attempt.status}, latency_ms = ${attempt.latencyMs},
        response_body = ${attempt.body}, error = ${error}`

    /**
     * A 2xx answer: SUCCEEDED, and the endpoint is no longer failing. One
     * statement, atomic without a transaction around it: a delivery is
     * recorded at the rate deliveries drain, and each round trip counts.
     */
    const succeeded = (ref: DeliveryRef, endpointId: string, attempt: AttemptRecord) =>
      sql`
        WITH settled AS (
          UPDATE webhook_deliveries SET ${attempted(attempt)}, status = 'SUCCEEDED', next_attempt_at = NULL, delivered_at = now()
          WHERE org_id = ${ref.orgId} AND id = ${ref.id} AND status = 'PENDING'
        )
        UPDATE webhook_endpoints SET failing_since = NULL
        WHERE org_id = ${ref.orgId} AND id = ${endpointId} AND failing_since IS NOT NULL`.pipe(Effect.asVoid)

    /** A failed attempt that will be tried again after `retryInMs` (null: no further attempt is planned). */
    const retrying = (ref: DeliveryRef, attempt: AttemptRecord, retryInMs: number | null) =>
      sql`
        UPDATE webhook_deliveries SET ${attempted(attempt)},
          next_attempt_at = ${retryInMs === null ? sql`NULL` : sql`now() + ${retryInMs}::float8 * interval '1 millisecond'`}
        WHERE org_id = ${ref.orgId} AND id = ${ref.id} AND status = 'PENDING'`.pipe(Effect.asVoid)

    /** Given up, with why: after this attempt (recorded), or without one (the endpoint disabled, the event gone). */
    const giveUp = (ref: DeliveryRef, reason: string, attempt?: AttemptRecord) =>
      sql`
        UPDATE webhook_deliveries SET ${attempt === undefined ? sql`error = ${reason}` : attempted(attempt, reason)},
          status = 'FAILED', next_attempt_at = NULL
        WHERE org_id = ${ref.orgId} AND id = ${ref.id} AND status = 'PENDING'`.pipe(Effect.asVoid)

    /**
     * A batch's outcomes, one statement however many: each delivery's attempt
     * (when one was made) and its new status; the endpoint is no longer
     * failing when any succeeded. As everywhere, only a PENDING delivery
     * changes. Answers the ids left PENDING for another attempt.
     */
    const settleMany = (orgId: OrganizationId, endpointId: string, outcomes: ReadonlyArray<Settlement>) =>
      outcomes.length === 0 ? Effect.succeed([] as ReadonlyArray<string>) : sql<{ id: string }>`
        WITH outcome AS (
          SELECT * FROM unnest(
            ${outcomes.map((o) => o.id)}::text[], ${outcomes.map((o) => o.attempt !== null)}::bool[],
            ${outcomes.map((o) => o.status)}::text[], ${outcomes.map((o) => o.attempt?.status ?? null)}::int[],
            ${outcomes.map((o) => o.attempt?.latencyMs ?? null)}::int[], ${outcomes.map((o) => o.attempt?.body ?? null)}::text[],
            ${outcomes.map((o) => o.error)}::text[], ${outcomes.map((o) => o.retryInMs)}::float8[]
          ) AS o(id, attempted, status, response_status, latency_ms, body, error, retry_ms)
        ), cleared AS (
          UPDATE webhook_endpoints SET failing_since = NULL
          WHERE org_id = ${orgId} AND id = ${endpointId} AND failing_since IS NOT NULL
            AND EXISTS (SELECT 1 FROM outcome WHERE outcome.status = 'SUCCEEDED')
        ), settled AS (
          UPDATE webhook_deliveries d SET
            attempts = d.attempts + CASE WHEN o.attempted THEN 1 ELSE 0 END,
            response_status = CASE WHEN o.attempted THEN o.response_status ELSE d.response_status END,
            latency_ms = CASE WHEN o.attempted THEN o.latency_ms ELSE d.latency_ms END,
            response_body = CASE WHEN o.attempted THEN o.body ELSE d.response_body END,
            error = o.error, status = o.status,
            next_attempt_at = CASE WHEN o.retry_ms IS NULL THEN NULL ELSE now() + o.retry_ms * interval '1 millisecond' END,
            delivered_at = CASE WHEN o.status = 'SUCCEEDED' THEN now() ELSE d.delivered_at END
          FROM outcome o
          WHERE d.org_id = ${orgId} AND d.endpoint_id = ${endpointId} AND d.id = o.id AND d.status = 'PENDING'
          RETURNING d.id, d.status
        )
        SELECT id FROM settled WHERE status = 'PENDING'`.pipe(Effect.map((rows) => rows.map((row) => row.id)))

    const replayed = sql`status = 'PENDING', delivered_at = NULL, next_attempt_at = now()`

    /** PENDING again, due now (the last attempt's record stays until the next); the row as it now is. */
    const replay = (ref: DeliveryRef) =>
      sql<DeliveryRow>`
        UPDATE webhook_deliveries d SET ${replayed}
        WHERE d.org_id = ${ref.orgId} AND d.id = ${ref.id}
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]))

    /** Every FAILED delivery of the endpoint made at or after `since`, PENDING again (webhook_deliveries_failed); their ids. */
    const replayFailedSince = (orgId: OrganizationId, endpointId: string, since: Date) =>
      sql<{ id: string }>`
        UPDATE webhook_deliveries d SET ${replayed}
        WHERE d.org_id = ${orgId} AND d.endpoint_id = ${endpointId} AND d.status = 'FAILED' AND d.created_at >= ${since}
        RETURNING d.id`.pipe(Effect.map((rows) => rows.map((row) => row.id)))

    return { fanOut, insertPing, page, find, load, firstAttempts, succeeded, retrying, settleMany, giveUp, replay, replayFailedSince } as const
  })
}) {}
