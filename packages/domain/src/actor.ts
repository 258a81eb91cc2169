import { Context } from "effect"
import type { TeamMembership } from "./permissions.js"
import type { OrgRole, Scope } from "./roles.js"

/**
 * The person behind the bearer token, as read from the database on this
 * call (a demotion or removal takes effect on the next call).
 */
export interface Actor {
  readonly organizationId: string
  readonly userId: string
  readonly role: OrgRole
  readonly teams: ReadonlyArray<TeamMembership>
  readonly scopes: ReadonlyArray<Scope>
  readonly tokenId: string
}

export class CurrentActor extends Context.Tag("@tks/domain/CurrentActor")<CurrentActor, Actor>() {}

export const actorTeamIds = (actor: Actor): ReadonlyArray<string> => actor.teams.map((team) => team.teamId)
