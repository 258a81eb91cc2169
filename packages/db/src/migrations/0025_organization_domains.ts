import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An organization's verified email domains: an identity directory may
 * provision only people whose email is at one of them. A domain is stored
 * as the bare host name in its ASCII form (lower case, punycode for an
 * internationalized name, no trailing dot), so equal names are equal text.
 * It belongs to one organization at most (`organization_domains_domain`):
 * two organizations cannot both claim the people of one domain.
 * `added_by` is who vouched for it: a person's id (`usr_...`) or the
 * system's part (`system:cli`, the operator). Byte order ("C") so a list
 * by name reads the same on every server, whatever its locale.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE organization_domains (
    org_id text NOT NULL REFERENCES organizations (id),
    domain text COLLATE "C" NOT NULL CHECK (domain = lower(domain) AND domain <> '' AND right(domain, 1) <> '.'),
    verified_at timestamptz NOT NULL,
    added_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, domain),
    CONSTRAINT organization_domains_domain UNIQUE (domain)
  )`
})
