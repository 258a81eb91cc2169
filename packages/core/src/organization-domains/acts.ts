import type { Caller } from "@tks/domain/caller"
import type { OrganizationId } from "@tks/domain/ids"
import type { ActRecord } from "../journal/journal.js"
import type { OrganizationDomainRow } from "./repo.js"

/**
 * Adding or removing a verified email domain, recorded against the
 * organization and the domain itself (so `target=example.com` finds its
 * history), with the domain and when it was verified.
 */
export const organizationDomainAct = (
  caller: Caller,
  orgId: OrganizationId,
  action: "organization_domain.added" | "organization_domain.removed",
  row: OrganizationDomainRow
): ActRecord => {
  const side = action === "organization_domain.added" ? "new" : "old"
  return {
    caller,
    orgId,
    action,
    targets: [{ type: "organization", id: orgId }, { type: "organization_domain", id: row.domain }],
    changes: {
      domain: { [side]: row.domain },
      verifiedAt: { [side]: row.verified_at.toISOString() }
    }
  }
}
