import { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import { BadRequest, NotFound, Unauthorized } from "@tks/domain/errors"
import { mayHoldScope } from "@tks/domain/permissions"
import type { Scope } from "@tks/domain/roles"
import { newId } from "../shared/ids.js"
import { AuthRepo } from "./repo.js"
import { generateTokenSecret, hashToken } from "./token-secret.js"

const rejected = new Unauthorized({ message: "The bearer token is missing, invalid, expired or revoked" })

export interface IssueTokenInput {
  readonly organizationId: string
  readonly userId: string
  readonly scopes: ReadonlyArray<Scope>
  readonly expiresAt?: Date | undefined
  readonly name?: string | undefined
}

/** Bearer tokens: who a token belongs to (re-read on every call), issuing and revoking. */
export class Authenticator extends Effect.Service<Authenticator>()("@tks/core/Authenticator", {
  effect: Effect.gen(function*() {
    const repo = yield* AuthRepo

    const authenticate = Effect.fn("Authenticator.authenticate")(function*(token: string) {
      if (token.length === 0 || token.length > 200) return yield* rejected
      const row = yield* repo.findLiveToken(hashToken(token))
      if (row === undefined) return yield* rejected
      if (row.last_used_stale) yield* repo.touch(row.org_id, row.token_id)
      const actor: Actor = {
        organizationId: row.org_id,
        userId: row.user_id,
        role: row.org_role,
        teams: row.teams,
        scopes: row.scopes,
        tokenId: row.token_id
      }
      return actor
    })

    const issue = Effect.fn("Authenticator.issue")(function*(input: IssueTokenInput) {
      const person = yield* repo.findPerson(input.organizationId, input.userId)
      if (person === undefined) return yield* new NotFound({ message: "No such person in that organization" })
      const refused = input.scopes.filter((scope) => !mayHoldScope(person.org_role, person.teams, scope))
      if (refused.length > 0) {
        return yield* new BadRequest({
          code: "SCOPE_NOT_GRANTABLE",
          message: `This person may not be granted: ${refused.join(", ")}`
        })
      }
      const token = generateTokenSecret()
      const id = newId("accessToken")
      yield* repo.insert({
        orgId: input.organizationId,
        id,
        userId: input.userId,
        tokenHash: hashToken(token),
        name: input.name ?? null,
        scopes: [...new Set(input.scopes)],
        expiresAt: input.expiresAt ?? null
      })
      return { id, token } as const
    })

    const revoke = Effect.fn("Authenticator.revoke")(function*(tokenId: string) {
      const revoked = yield* repo.revoke(tokenId)
      if (!revoked) return yield* new NotFound({ message: "No live token with that id" })
    })

    return { authenticate, issue, revoke } as const
  }),
  dependencies: [AuthRepo.Default]
}) {}
