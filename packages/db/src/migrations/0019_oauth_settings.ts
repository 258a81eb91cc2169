import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An organization's identity provider (at most one), whose access tokens
 * sign people in to the organization's MCP resource: the issuer, the
 * audience its tokens must name (null: the resource's own URL), the claim
 * matched to a person's email, and the map from the provider's scopes to
 * ours (null: each of our scope names grants itself).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE oauth_settings (
    org_id text NOT NULL REFERENCES organizations (id),
    issuer text NOT NULL,
    audience text,
    person_claim text NOT NULL,
    scope_map jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id)
  )`
})
