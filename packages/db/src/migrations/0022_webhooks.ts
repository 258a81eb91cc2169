import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Webhooks (docs/webhooks.md): the endpoints an organization's admins
 * register, and one delivery per event (or test ping) and endpoint.
 *
 * An endpoint keeps the secret that signs its deliveries (`whsec_`, shown
 * to the admin only when made) and, for 24 hours after a rotation, the one
 * before it (`previous_secret`, until `previous_secret_expires_at`):
 * deliveries are signed with both meanwhile. `failing_since` is when its
 * current run of failed attempts began (null after a success); an endpoint
 * failing for 3 days, or answering 410, is disabled (`disabled_at` with
 * `disabled_reason`), and an enabled one never carries a reason.
 *
 * A delivery names the event by its feed position (`event_position`, the
 * body is the event as the feed shows it, read at each attempt), or holds
 * its whole body when it is a ping (`payload`). `event_id` is the
 * `webhook-id` header, the same on every attempt and replay; `event_type`
 * is kept beside it so the log reads without the event (the feed keeps
 * events 30 days). The last attempt's outcome is on the row: the HTTP
 * status, the time to its answer, the first 1 KB of its body, or the error.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE webhook_endpoints (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    url text NOT NULL,
    description text,
    event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at timestamptz,
    disabled_at timestamptz,
    disabled_reason text,
    failing_since timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL)),
    CHECK (disabled_at IS NOT NULL OR disabled_reason IS NULL)
  )`
  yield* sql`CREATE INDEX webhook_endpoints_newest ON webhook_endpoints (org_id, created_at DESC, id DESC)`
  // Every act that emits events asks whether its organization has an enabled endpoint: almost always none.
  yield* sql`CREATE INDEX webhook_endpoints_enabled ON webhook_endpoints (org_id) WHERE disabled_at IS NULL`

  // No foreign keys, on purpose: an act that reaches 20,000 people writes
  // 20,000 deliveries in its own transaction (WebhookFanout), and a foreign
  // key is a trigger per row. Rows are written only from an endpoint of the
  // organization, and deleting an endpoint deletes its deliveries in the
  // same transaction (WebhookEndpointsRepo.remove). The event is not
  // referenced either: the feed drops events after 30 days.
  yield* sql`CREATE TABLE webhook_deliveries (
    org_id text NOT NULL,
    id text NOT NULL,
    endpoint_id text NOT NULL,
    event_position bigint,
    event_id text NOT NULL,
    event_type text NOT NULL,
    payload jsonb,
    status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
    attempts integer NOT NULL DEFAULT 0,
    response_status integer,
    latency_ms integer,
    response_body text,
    error text,
    next_attempt_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    PRIMARY KEY (org_id, id),
    CHECK ((event_position IS NULL) <> (payload IS NULL)),
    CHECK ((status = 'SUCCEEDED') = (delivered_at IS NOT NULL))
  )`
  // The log, newest first; filtered by status it reads the same index (the
  // pending and succeeded rows are most of it) but for FAILED, which replay
  // also walks from a time on. The partial index costs the fan-out nothing:
  // rows are written PENDING.
  yield* sql`CREATE INDEX webhook_deliveries_newest ON webhook_deliveries (org_id, endpoint_id, created_at DESC, id DESC)`
  // An event goes to an endpoint once: the fan-out job may see an event twice
  // (a span of positions shared with another act's, a run repeated).
  yield* sql`CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (org_id, endpoint_id, event_position)
    WHERE event_position IS NOT NULL`
  yield* sql`CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (org_id, endpoint_id, created_at DESC, id DESC)
    WHERE status = 'FAILED'`
})
