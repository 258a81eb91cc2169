import { Caller } from "@tks/domain/caller"
import type { OrganizationId } from "@tks/domain/ids"
import type { OAuthSettings } from "@tks/domain/oauth"
import type { ActRecord } from "../journal/journal.js"

/** The settings in force, as an audit row shows them (when they were set is the row's own time). */
type Shown = Omit<OAuthSettings, "updatedAt">

const shown = (settings: OAuthSettings | null): Shown | null =>
  settings === null
    ? null
    : { issuer: settings.issuer, audience: settings.audience, personClaim: settings.personClaim, scopeMap: settings.scopeMap }

/**
 * The operator's acts on an organization's identity provider (only the CLI
 * sets and clears it), old and new settings side by side.
 */
export const oauthSettingsAct = (
  orgId: OrganizationId,
  action: "oauth_settings.set" | "oauth_settings.cleared",
  before: OAuthSettings | null,
  after: OAuthSettings | null
): ActRecord => {
  const old = shown(before)
  const now = shown(after)
  return {
    caller: Caller.system("cli"),
    orgId,
    action,
    targets: [{ type: "organization", id: orgId }],
    changes: {
      issuer: { old: old?.issuer ?? null, new: now?.issuer ?? null },
      audience: { old: old?.audience ?? null, new: now?.audience ?? null },
      personClaim: { old: old?.personClaim ?? null, new: now?.personClaim ?? null },
      scopeMap: { old: old?.scopeMap ?? null, new: now?.scopeMap ?? null }
    }
  }
}
