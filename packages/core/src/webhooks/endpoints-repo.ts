import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { organizationAdminRoles } from "@tks/domain/permissions"
import { FAILING_DAYS_BEFORE_DISABLE, PREVIOUS_SECRET_HOURS } from "@tks/domain/webhooks"
import { newId } from "../common/ids.js"
import { newestFirst } from "../common/keyset.js"

/** An endpoint as the API shows it (never its secrets). */
export interface EndpointRow {
  readonly id: string
  readonly url: string
  readonly description: string | null
  readonly event_types: ReadonlyArray<string>
  readonly disabled_at: Date | null
  readonly disabled_reason: string | null
  readonly failing_since: Date | null
  /** Null once it has passed: the previous secret no longer signs. */
  readonly previous_secret_expires_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly created_us: string
}

export interface EndpointWithSecretRow extends EndpointRow {
  readonly secret: string
}

/** What a change sets; what is left out stays. */
export interface EndpointChange {
  readonly url?: string
  readonly description?: string | null
  readonly eventTypes?: ReadonlyArray<string>
  /** Disabled by an admin (with this reason), or enabled again (why and since when it was failing are forgotten). */
  readonly disabled?: { readonly reason: string } | false
}

/**
 * The webhook endpoints of an organization (migration 0021): written by
 * the admins' acts, read by the API and by delivery, and marked by delivery
 * when they fail or are disabled.
 */
export class WebhookEndpointsRepo extends Effect.Service<WebhookEndpointsRepo>()("@tks/core/WebhookEndpointsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`e.id, e.url, e.description, e.event_types, e.disabled_at, e.disabled_reason, e.failing_since,
      CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_expires_at END AS previous_secret_expires_at,
      e.created_at, e.updated_at, ${newestFirst.column(sql, "e")}`

    const insert = (orgId: OrganizationId, row: {
      readonly url: string
      readonly description: string | null
      readonly eventTypes: ReadonlyArray<string>
      readonly secret: string
    }) =>
      sql<EndpointWithSecretRow>`
        INSERT INTO webhook_endpoints AS e (org_id, id, url, description, event_types, secret)
        VALUES (${orgId}, ${newId("webhookEndpoint")}, ${row.url}, ${row.description}, ${[...row.eventTypes]}::text[], ${row.secret})
        RETURNING ${columns}, e.secret`.pipe(Effect.map((rows) => rows[0]!))

    /** Newest first (webhook_endpoints_newest), after `after`. */
    const page = (orgId: OrganizationId, after: readonly [string, string] | null, limit: number) =>
      sql<EndpointRow>`
        SELECT ${columns} FROM webhook_endpoints e
        WHERE e.org_id = ${orgId} ${newestFirst.after(sql, "e", after)}
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT ${limit}`

    /** One endpoint; `forUpdate` locks it for the rest of the transaction (an act reads what it changes). */
    const find = (orgId: OrganizationId, id: string, forUpdate = false) =>
      sql<EndpointRow>`
        SELECT ${columns} FROM webhook_endpoints e WHERE e.org_id = ${orgId} AND e.id = ${id}
        ${forUpdate ? sql`FOR UPDATE` : sql``}`.pipe(Effect.map((rows) => rows[0]))

    const update = (orgId: OrganizationId, id: string, change: EndpointChange) =>
      sql<EndpointRow>`
        UPDATE webhook_endpoints e SET
          ${change.url === undefined ? sql`` : sql`url = ${change.url},`}
          ${change.description === undefined ? sql`` : sql`description = ${change.description},`}
          ${change.eventTypes === undefined ? sql`` : sql`event_types = ${[...change.eventTypes]}::text[],`}
          ${
        change.disabled === undefined
          ? sql``
          : change.disabled === false
          ? sql`disabled_at = NULL, disabled_reason = NULL, failing_since = NULL,`
          : sql`disabled_at = coalesce(disabled_at, now()), disabled_reason = coalesce(disabled_reason, ${change.disabled.reason}),`
      }
          updated_at = now()
        WHERE e.org_id = ${orgId} AND e.id = ${id}
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]))

    /** Deletes the endpoint and its deliveries in one statement; false when there was no such endpoint. */
    const remove = (orgId: OrganizationId, id: string) =>
      sql<{ id: string }>`
        WITH gone AS (DELETE FROM webhook_endpoints WHERE org_id = ${orgId} AND id = ${id} RETURNING org_id, id),
          deliveries AS (DELETE FROM webhook_deliveries d USING gone WHERE d.org_id = gone.org_id AND d.endpoint_id = gone.id)
        SELECT id FROM gone`.pipe(Effect.map((rows) => rows.length === 1))

    /** A new secret; the one it replaces keeps signing for PREVIOUS_SECRET_HOURS (a rotation within them drops the older one). */
    const rotate = (orgId: OrganizationId, id: string, secret: string) =>
      sql<EndpointWithSecretRow>`
        UPDATE webhook_endpoints e SET previous_secret = e.secret,
          previous_secret_expires_at = now() + ${PREVIOUS_SECRET_HOURS} * interval '1 hour',
          secret = ${secret}, updated_at = now()
        WHERE e.org_id = ${orgId} AND e.id = ${id}
        RETURNING ${columns}, e.secret`.pipe(Effect.map((rows) => rows[0]))

    /** The enabled endpoints subscribed to any of `types`: what an act's events fan out to (webhook_endpoints_enabled; almost always none). */
    const subscribedIds = (orgId: OrganizationId, types: ReadonlyArray<string>) =>
      sql<{ id: string }>`
        SELECT id FROM webhook_endpoints
        WHERE org_id = ${orgId} AND disabled_at IS NULL AND event_types && ${[...new Set(types)]}::text[]`.pipe(
        Effect.map((rows) => rows.map((row) => row.id))
      )

    /**
     * A failed attempt: the endpoint is failing since now unless it already
     * was. Answers since when, and whether that is FAILING_DAYS_BEFORE_DISABLE
     * or more (time to disable it).
     */
    const markFailing = (orgId: OrganizationId, id: string) =>
      sql<{ failing_since: Date; overdue: boolean }>`
        UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
        WHERE org_id = ${orgId} AND id = ${id}
        RETURNING failing_since, failing_since <= now() - ${FAILING_DAYS_BEFORE_DISABLE} * interval '1 day' AS overdue`.pipe(
        Effect.map((rows) => rows[0])
      )

    /** The service disables the endpoint; the row as it now is, or undefined when it was disabled already. */
    const disable = (orgId: OrganizationId, id: string, reason: string) =>
      sql<EndpointRow>`
        UPDATE webhook_endpoints e SET disabled_at = now(), disabled_reason = ${reason}, updated_at = now()
        WHERE e.org_id = ${orgId} AND e.id = ${id} AND e.disabled_at IS NULL
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]))

    /** The organization's admins still with it: who hears that an endpoint was disabled. */
    const adminIds = (orgId: OrganizationId) =>
      sql<{ id: string }>`
        SELECT id FROM users WHERE org_id = ${orgId} AND status = 'ACTIVE' AND org_role = ANY(${[...organizationAdminRoles]}::text[])`.pipe(
        Effect.map((rows) => rows.map((row) => row.id))
      )

    return { insert, page, find, update, remove, rotate, subscribedIds, markFailing, disable, adminIds } as const
  })
}) {}
