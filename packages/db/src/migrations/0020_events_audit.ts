import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The event feed and the audit log, both written by an act in its own
 * transaction (core's journal).
 *
 * `events` is the feed integrators poll (GET /v1/events) and webhooks
 * deliver from. `position` orders it; `tx` is the writing transaction's id,
 * so the feed shows an event only once every transaction that could still
 * write a lower position has ended (`tx < pg_snapshot_xmin(...)`) and a
 * reader paging `after` a position never skips one. Kept 30 days.
 *
 * A bulk act writes tens of thousands of events in its transaction
 * (assigning a lesson to 20,000 people: 40,000), so each index counts:
 * `id` is random and never looked up, so it has no unique index (a random
 * key's index was a fifth of the insert); the retention sweep finds old
 * rows through a BRIN index, a few pages for any number of rows written in
 * time order, where a b-tree cost every insert an entry.
 *
 * `audit_events` is who did what, from where: one row per act, with the
 * target ids (`target_ids`, searchable) and a summary of the change (old and
 * new values, never secrets). Read newest first.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE events (
    position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL,
    org_id text NOT NULL REFERENCES organizations (id),
    type text NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    tx xid8 NOT NULL,
    actor jsonb NOT NULL,
    data jsonb NOT NULL
  )`
  yield* sql`CREATE INDEX events_feed ON events (org_id, position)`
  yield* sql`CREATE INDEX events_feed_by_type ON events (org_id, type, position)`
  yield* sql`CREATE INDEX events_age ON events USING brin (occurred_at)`

  yield* sql`CREATE TABLE audit_events (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    action text NOT NULL,
    actor_type text NOT NULL CHECK (actor_type IN ('person', 'system')),
    actor_person_id text,
    actor_token_id text,
    actor_name text,
    targets jsonb NOT NULL,
    target_ids text[] NOT NULL,
    changes jsonb,
    request_id text,
    client_ip text,
    user_agent text,
    PRIMARY KEY (org_id, id)
  )`
  yield* sql`CREATE INDEX audit_events_newest ON audit_events (org_id, occurred_at DESC, id DESC)`
  yield* sql`CREATE INDEX audit_events_by_actor ON audit_events (org_id, actor_person_id, occurred_at DESC, id DESC)`
  yield* sql`CREATE INDEX audit_events_by_action ON audit_events (org_id, action, occurred_at DESC, id DESC)`
  yield* sql`CREATE INDEX audit_events_by_target ON audit_events USING gin (target_ids)`
})
