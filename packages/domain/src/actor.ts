import type { AccessTokenId, OrganizationId, TeamId, UserId } from "./ids.js"
import type { OrgRole, Scope, TeamRole } from "./roles.js"

/**
 * The person behind the bearer token, as read from the database on this
 * call (a demotion or removal takes effect on the next call).
 */
export interface Actor {
  readonly organizationId: OrganizationId
  readonly userId: UserId
  readonly role: OrgRole
  readonly teams: ReadonlyArray<{ readonly teamId: TeamId; readonly role: TeamRole }>
  readonly scopes: ReadonlyArray<Scope>
  readonly tokenId: AccessTokenId
}

export const actorTeamIds = (actor: Actor): ReadonlyArray<TeamId> => actor.teams.map((team) => team.teamId)
