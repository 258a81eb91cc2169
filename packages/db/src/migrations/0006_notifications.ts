import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The notifications outbox: one row per
 * message an act tells a person, written in the act's own transaction, and
 * every attempt to deliver it.
 *
 * A row keeps what the act knew when it happened: the notice's facts as
 * jsonb (`notice`, rendered into words only at delivery, so the wording can
 * improve without touching stored rows, while a later rename of the lesson
 * does not change what an earlier message says), and the address and name
 * of the person at that moment (`recipient`, `recipient_name`).
 *
 * The row's id is the message's identity: it goes out as the email's
 * Message-ID and the text's Idempotency-Key, so a delivery retried after an
 * unclear failure is recognisable as the same message. `status` moves once,
 * conditionally on still being PENDING: SENT (with `sent_at` and the
 * provider's id), SKIPPED (the person was deactivated before it went), or
 * FAILED (refused for good, or out of attempts).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // No foreign keys here, on purpose: rows are written only by
  // NotificationOutbox.tell's INSERT ... SELECT from the organization's users
  // (so each names a real person of that organization when written), and
  // people are deactivated, never deleted. A foreign key is checked by a
  // trigger per row; for an act that reaches 20,000 people (about 30,000
  // rows) the two checks were 45% of the statement's time.
  yield* sql`CREATE TABLE notifications (
    org_id text NOT NULL,
    id text NOT NULL,
    user_id text NOT NULL,
    channel text NOT NULL CHECK (channel IN ('email', 'sms')),
    kind text NOT NULL,
    recipient text NOT NULL,
    recipient_name text NOT NULL,
    notice jsonb NOT NULL,
    status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'SKIPPED', 'FAILED')),
    provider_message_id text,
    error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    finished_at timestamptz,
    PRIMARY KEY (org_id, id),
    CHECK ((status = 'SENT') = (sent_at IS NOT NULL)),
    CHECK ((status = 'PENDING') = (finished_at IS NULL))
  )`
  // Delivery reads a row by its id (the primary key) and nothing else reads
  // the table yet; another index would only slow the big inserts down.

  // Each delivery attempt: numbered per notification, with what came of it.
  yield* sql`CREATE TABLE notification_attempts (
    org_id text NOT NULL,
    notification_id text NOT NULL,
    attempt integer NOT NULL CHECK (attempt >= 1),
    outcome text NOT NULL CHECK (outcome IN ('sent', 'retryable', 'permanent', 'skipped')),
    provider text,
    error text,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, notification_id, attempt),
    FOREIGN KEY (org_id, notification_id) REFERENCES notifications (org_id, id) ON DELETE CASCADE
  )`
})
