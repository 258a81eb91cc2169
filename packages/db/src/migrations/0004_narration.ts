import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Voice narration: the monthly character allowance of each
 * organization, and a record of every narration request.
 *
 * `narration_allowances` holds one row per organization and UTC month with
 * the characters counted so far (reservations of narrations still running
 * included). A reservation is one INSERT ... ON CONFLICT DO UPDATE whose
 * WHERE refuses a total past the allowance, so concurrent requests from any
 * number of server processes are serialised by the row lock and can never
 * spend more than the allowance between them.
 *
 * `narration_requests` keeps who asked (token and person), how many
 * characters, with which voice and provider, and the outcome; never the text
 * or the audio. A request is RESERVED while its speech is made, then settled
 * exactly once by a conditional UPDATE (WHERE outcome = 'RESERVED'): kept
 * (COMPLETED, TIMINGS_UNREADABLE) or given back (PROVIDER_FAILED, CANCELLED,
 * and EXPIRED when the reaper finds a reservation whose request died).
 * QUOTA_EXCEEDED rows record refused requests; they reserved nothing.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE narration_allowances (
    org_id text NOT NULL REFERENCES organizations (id),
    month date NOT NULL,
    used integer NOT NULL CHECK (used >= 0),
    PRIMARY KEY (org_id, month)
  ) WITH (fillfactor = 70)`

  yield* sql`CREATE TABLE narration_requests (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    token_id text NOT NULL,
    user_id text NOT NULL,
    month date NOT NULL,
    characters integer NOT NULL CHECK (characters > 0),
    voice_id text NOT NULL,
    provider text NOT NULL,
    outcome text NOT NULL CHECK (outcome IN (
      'RESERVED', 'COMPLETED', 'TIMINGS_UNREADABLE', 'PROVIDER_FAILED', 'CANCELLED', 'EXPIRED', 'QUOTA_EXCEEDED'
    )),
    requested_at timestamptz NOT NULL DEFAULT now(),
    settled_at timestamptz,
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, token_id) REFERENCES access_tokens (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id)
  )`
  // The month's usage by outcome, for GET /v1/narration/usage.
  yield* sql`CREATE INDEX narration_requests_by_month ON narration_requests (org_id, month, outcome)`
  // The reaper's scan: only reservations still open, oldest first.
  yield* sql`CREATE INDEX narration_requests_open ON narration_requests (requested_at) WHERE outcome = 'RESERVED'`
})
