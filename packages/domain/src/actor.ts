import type { AccessTokenId, OrganizationId, TeamId, UserId } from "./ids.js"
import type { OrgRole, Scope, TeamRole } from "./roles.js"

/**
 * The person behind the bearer token, as read from the database on this
 * call (a demotion or removal takes effect on the next call). `scopes` are
 * the access token's, or those an identity provider's token grants through
 * the organization's scope map; `tokenId` is the access token's, null for
 * an identity provider's token (it has no row here).
 */
export interface Actor {
  readonly organizationId: OrganizationId
  readonly userId: UserId
  readonly role: OrgRole
  readonly teams: ReadonlyArray<{ readonly teamId: TeamId; readonly role: TeamRole }>
  readonly scopes: ReadonlyArray<Scope>
  readonly tokenId: AccessTokenId | null
}

/** How a rate-limit subject names a person signed in with an identity provider's token (a token id never starts so). */
export const PERSON_SUBJECT_PREFIX = "person:"

/** Whom a caller's rate limits count against: their access token, or the person when they signed in through a provider. */
export const rateLimitSubject = (actor: Actor): string => actor.tokenId ?? `${PERSON_SUBJECT_PREFIX}${actor.userId}`

export const actorTeamIds = (actor: Actor): ReadonlyArray<TeamId> => actor.teams.map((team) => team.teamId)
