import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { Caller } from "@tks/domain/caller"
import { BadRequest, NotFound, Unauthorized } from "@tks/domain/errors"
import { AccessTokenId, type OrganizationId, type UserId } from "@tks/domain/ids"
import { mayHoldScope } from "@tks/domain/permissions"
import type { Scope } from "@tks/domain/roles"
import { newId } from "../common/ids.js"
import { countedOf } from "../rate-limits/repo.js"
import { requestsPerToken, RequestsPerMinute } from "../rate-limits/rules.js"
import { decided } from "../rate-limits/verdict.js"
import { Journal } from "../journal/journal.js"
import { AuthRepo, type PersonRow, type TokenOwnerRow } from "./repo.js"
import { tokenIssued, tokenRevoked } from "./token-acts.js"
import { generateTokenSecret, hashToken } from "./token-secret.js"
import { traced } from "../common/traced.js"

const actorOf = (row: TokenOwnerRow): Actor => ({
  organizationId: row.org_id,
  userId: row.user_id,
  role: row.org_role,
  teams: row.teams,
  scopes: row.scopes,
  tokenId: row.token_id
})

const rejected = new Unauthorized({ message: "The bearer token is missing, invalid, expired or revoked" })

interface IssueTokenInput {
  readonly organizationId: OrganizationId
  readonly userId: UserId
  readonly scopes: ReadonlyArray<Scope>
  readonly expiresAt?: Date | undefined
  readonly name?: string | undefined
}

/** Bearer tokens: who a token belongs to (re-read on every call), issuing and revoking. */
export class Authenticator extends Effect.Service<Authenticator>()("@tks/core/Authenticator", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* AuthRepo
    const journal = yield* Journal
    const perToken = requestsPerToken(yield* RequestsPerMinute)

    /**
     * The person a request's token belongs to, as they are now, and the
     * request counted against the token's default limit (RATE_LIMIT_PER_MINUTE
     * a minute, over all server processes), in one statement: the grant's
     * figures for the `RateLimit-*` headers, or TooManyRequests. A token that
     * does not authenticate is refused first and counts nothing.
     */
    const authenticateRequest = traced("Authenticator.authenticate")(function*(token: string) {
      if (token.length === 0 || token.length > 200) return yield* rejected
      const row = yield* repo.findLiveToken(hashToken(token), perToken)
      if (row === undefined) return yield* rejected
      const rateLimit = yield* decided(perToken, 1, countedOf(row))
      return { actor: actorOf(row), rateLimit } as const
    })

    /**
     * The person a token belongs to, as they are now, counting nothing: for
     * each call inside a request that `authenticateRequest` already counted
     * (the several calls of one /rpc request).
     */
    const identify = traced("Authenticator.identify")(function*(token: string) {
      if (token.length === 0 || token.length > 200) return yield* rejected
      const row = yield* repo.findLiveTokenUncounted(hashToken(token))
      return row === undefined ? yield* rejected : actorOf(row)
    })

    /**
     * The person an identity provider's verified token names (by email, any
     * case), as they are now, with the scopes the token grants that the
     * person may hold (the rule that issuing an access token keeps), and the
     * request counted against the person's default limit, as
     * `authenticateRequest` does for a token. Nobody with that email, or
     * someone who has left, is refused like a bad token.
     */
    const authenticatePerson = traced("Authenticator.authenticatePerson")(
      function*(organizationId: OrganizationId, email: string, scopes: ReadonlyArray<Scope>) {
        if (email.length === 0 || email.length > 320) return yield* rejected
        const row = yield* repo.findActivePersonCounted(organizationId, email, perToken)
        if (row === undefined) return yield* rejected
        yield* decided(perToken, 1, countedOf(row))
        const actor: Actor = {
          organizationId,
          userId: row.user_id,
          role: row.org_role,
          teams: row.teams,
          scopes: scopes.filter((scope) => mayHoldScope(row.org_role, row.teams, scope)),
          tokenId: null
        }
        return actor
      }
    )

    /** `authenticateRequest` for a caller that reports no rate-limit figures (the tools). */
    const authenticate = (token: string) => Effect.map(authenticateRequest(token), (authenticated) => authenticated.actor)

    const create = traced("Authenticator.create")(function*(input: IssueTokenInput, person: PersonRow) {
      const refused = input.scopes.filter((scope) => !mayHoldScope(person.org_role, person.teams, scope))
      if (refused.length > 0) {
        return yield* new BadRequest({
          code: "SCOPE_NOT_GRANTABLE",
          message: `This person may not be granted: ${refused.join(", ")}`
        })
      }
      const token = generateTokenSecret()
      const id = AccessTokenId.make(newId("accessToken"))
      const row = {
        orgId: input.organizationId,
        id,
        userId: input.userId,
        tokenHash: hashToken(token),
        name: input.name ?? null,
        scopes: [...new Set(input.scopes)],
        expiresAt: input.expiresAt ?? null
      }
      yield* repo.insert(row)
      return { id, token, row } as const
    })

    const personOf = (input: IssueTokenInput) =>
      Effect.flatMap(
        repo.findPerson(input.organizationId, input.userId),
        (person) => person === undefined ? new NotFound({ message: "No such person in that organization" }) : Effect.succeed(person)
      )

    /**
     * Issues a token. The system (the operator's CLI) may issue to anyone; a
     * person, once policies.tokens.issue has let them in (organization admins
     * only), within their own organization. Nobody issues to a person who
     * has left, or grants a scope the person may not hold. Recorded in its
     * transaction (`access_token.issued`: name, scopes and expiry, never the
     * token).
     */
    const issue = traced("Authenticator.issue")(function*(caller: Caller, input: IssueTokenInput) {
      if (caller._tag === "Person" && caller.access.actor.organizationId !== input.organizationId) {
        return yield* new NotFound({ message: "No such person in that organization" })
      }
      return yield* sql.withTransaction(Effect.gen(function*() {
        const person = yield* personOf(input)
        if (person.status !== "ACTIVE") {
          return yield* new BadRequest({
            code: "PERSON_DEACTIVATED",
            message: "This person has left the organization (DEACTIVATED); a token for them would never authenticate"
          })
        }
        const { id, row, token } = yield* create(input, person)
        yield* journal.record(tokenIssued(caller, { ...row, organizationId: row.orgId }))
        return { id, token } as const
      }))
    })

    /**
     * Records a token an organization import describes: the import loads a
     * state, so its tokens may belong to people who have since left or have
     * expired already (they then never authenticate). Scopes are still checked.
     */
    const importToken = traced("Authenticator.importToken")(function*(input: IssueTokenInput) {
      const { id, token } = yield* create(input, yield* personOf(input))
      return { id, token } as const
    })

    /**
     * Revokes a token. The system may revoke any; a person, under
     * policies.tokens.revoke, only a token of their own organization, and
     * unless they reach the whole organization (organization admins) only
     * one of their own. Anything else is answered as absent. Recorded in its
     * transaction (`access_token.revoked`).
     */
    const revoke = traced("Authenticator.revoke")(function*(caller: Caller, tokenId: AccessTokenId) {
      const within = caller._tag === "System" ? null : {
        orgId: caller.access.actor.organizationId,
        userId: caller.access.reach === "organization" ? null : caller.access.actor.userId
      }
      yield* sql.withTransaction(Effect.gen(function*() {
        const revoked = yield* repo.revoke(tokenId, within)
        if (revoked === undefined) return yield* new NotFound({ message: "No live token with that id" })
        yield* journal.record(tokenRevoked(caller, revoked))
      }))
    })

    return { authenticateRequest, authenticate, authenticatePerson, identify, issue, importToken, revoke } as const
  }),
  dependencies: [AuthRepo.Default, Journal.Default]
}) {}
