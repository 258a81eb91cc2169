import { isOrganizationAdmin } from "./permissions.js"
import type { OrgRole, Visibility } from "./roles.js"

/**
 * Visibility (docs/domain.md, Visibility): `everyone` is every member except external accounts,
 * `teams` the members of the listed teams (external accounts included),
 * `admins` the organization admins. Organization admins read everything.
 * Core's SQL filters mirror this rule; tests hold the two together.
 */
export interface Reader {
  readonly role: OrgRole
  readonly teamIds: ReadonlyArray<string>
}

export const canRead = (
  reader: Reader,
  visibility: Visibility,
  visibleToTeams: ReadonlyArray<string>
): boolean => {
  if (isOrganizationAdmin(reader.role)) return true
  switch (visibility) {
    case "everyone":
      return reader.role !== "external"
    case "teams":
      return visibleToTeams.some((team) => reader.teamIds.includes(team))
    case "admins":
      return false
  }
}
