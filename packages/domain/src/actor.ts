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

/**
 * Who is asking a service to act: a person (through a token, on any
 * transport), or the system itself (the operator's CLI, scheduled jobs,
 * workers), which no organization's rules restrict.
 */
export type Caller =
  | { readonly _tag: "Person"; readonly actor: Actor }
  | { readonly _tag: "System"; readonly name: string }

export const Caller = {
  person: (actor: Actor): Caller => ({ _tag: "Person", actor }),
  system: (name: string): Caller => ({ _tag: "System", name })
} as const

export const actorTeamIds = (actor: Actor): ReadonlyArray<TeamId> => actor.teams.map((team) => team.teamId)
