import type { EventType } from "@tks/domain/events"
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from "@tks/domain/webhooks"
import { iso, isoOrNull } from "../common/time.js"
import type { DeliveryRow } from "./deliveries-repo.js"
import type { EndpointRow, EndpointWithSecretRow } from "./endpoints-repo.js"

/** The wire views of endpoints and deliveries, keys in their schemas' order (the HTTP transport sends them as they are). */

export const endpointView = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types as ReadonlyArray<EventType>,
  disabled: row.disabled_at !== null,
  disabledAt: isoOrNull(row.disabled_at),
  disabledReason: row.disabled_reason,
  failingSince: isoOrNull(row.failing_since),
  previousSecretExpiresAt: isoOrNull(row.previous_secret_expires_at),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

export const endpointWithSecretView = (row: EndpointWithSecretRow): WebhookEndpointWithSecret => ({
  ...endpointView(row),
  secret: row.secret
})

export const deliveryView = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  eventPosition: row.event_position === null ? null : Number(row.event_position),
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.response_status,
  latencyMs: row.latency_ms,
  responseBody: row.response_body,
  error: row.error,
  nextAttemptAt: isoOrNull(row.next_attempt_at),
  createdAt: iso(row.created_at),
  deliveredAt: isoOrNull(row.delivered_at)
})
