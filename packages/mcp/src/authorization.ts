import type { Headers } from "@effect/platform"
import type { Rpc } from "@effect/rpc"
import { Context, Effect, Layer, Option } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { looksLikeAccessToken } from "@tks/core/auth/token-secret"
import { OAuthResource } from "@tks/core/oauth/service"
import type { Actor } from "@tks/domain/actor"
import { parseBearer } from "@tks/domain/bearer"
import { Unauthorized } from "@tks/domain/errors"
import type { OrganizationId } from "@tks/domain/ids"
import { authorize, isAccess, type Policy } from "@tks/domain/policy"
import { ToolAuthorization, ToolPolicy } from "./contract/tool.js"
import { Tools } from "./contract/tools.js"
import { lackedScope } from "./protocol/tool-scopes.js"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"

const otherOrganization = new Unauthorized({ message: "The bearer token is missing, invalid, expired or revoked" })

/** Each tool's scope, from its declared policy. */
const toolScopes = new Map(
  [...(Tools.requests as ReadonlyMap<string, Rpc.AnyWithProps>)].map(([name, rpc]) => [
    name,
    Option.match(Context.getOption(rpc.annotations, ToolPolicy), { onNone: () => null, onSome: (policy) => policy.scope })
  ])
)

/**
 * The one place the tool transports decide who may call what:
 * `authenticate` resolves the bearer token of a call's `authorization`
 * header to the person as they are now and counts the call against the
 * token's default rate limit (as every HTTP request does); `authorizeTool`
 * checks the tool's declared policy, and `authorizePolicy` any other
 * declared policy (a resource read's), with the same `authorize` as HTTP.
 * `authenticateAt` is `authenticate` for an organization's own resource,
 * where an identity provider's token signs in too.
 */
export class ToolCallers extends Effect.Service<ToolCallers>()("@tks/mcp/ToolCallers", {
  effect: Effect.gen(function*() {
    const authenticator = yield* Authenticator

    const authenticate = (headers: Headers.Headers) =>
      withSqlErrorAnswers(
        // Counted against the token's default rate limit by the authenticating statement itself.
        authenticator.authenticate(parseBearer(headers.authorization) ?? "")
      )

    /** The policy of an act that is not a tool (reading a content resource), with the same `authorize`. */
    const authorizePolicy = (actor: Actor, policy: Policy) =>
      Effect.suspend(() => {
        const access = authorize(actor, policy)
        return isAccess(access) ? Effect.succeed(access) : Effect.fail(access)
      })

    const oauth = yield* OAuthResource

    /**
     * The caller of `organizationId`'s resource (/mcp/{organizationId}): one
     * of this service's access tokens (by its look, `tks_…`), which must be
     * of that organization, or else an access token of the organization's
     * identity provider (none set: refused). Either way the same Actor,
     * counted against the same default limit.
     */
    const authenticateAt = (headers: Headers.Headers, organizationId: OrganizationId) => {
      const token = parseBearer(headers.authorization) ?? ""
      if (token === "" || looksLikeAccessToken(token)) {
        return Effect.filterOrFail(authenticate(headers), (actor) => actor.organizationId === organizationId, () => otherOrganization)
      }
      return withSqlErrorAnswers(oauth.authenticate(organizationId, token))
    }

    /** What a refusal of `organizationId`'s resource says (its WWW-Authenticate). */
    const challengeOf = (organizationId: OrganizationId) => withSqlErrorAnswers(oauth.challenge(organizationId))

    /** The first scope a request's tool calls need that `actor` lacks (see `lackedScope`). */
    const scopeLacked = (actor: Actor, body: unknown) => lackedScope(actor, body, (name) => toolScopes.get(name))

    const authorizeTool = (actor: Actor, rpc: Rpc.AnyWithProps) =>
      Effect.gen(function*() {
        const policy = Context.getOption(rpc.annotations, ToolPolicy)
        // Fail closed: a tool nobody declared a policy for is a bug, never open.
        if (Option.isNone(policy)) return yield* Effect.dieMessage(`Tool ${rpc._tag} has no declared policy`)
        return yield* authorizePolicy(actor, policy.value)
      })

    return { authenticate, authenticateAt, challengeOf, scopeLacked, authorizeTool, authorizePolicy } as const
  })
}) {}

/** For /rpc: every call authenticates from its own headers, then passes the tool's policy. */
export const ToolAuthorizationLive = Layer.effect(
  ToolAuthorization,
  Effect.map(ToolCallers, (callers) =>
    ToolAuthorization.of(({ headers, rpc }) =>
      callers.authenticate(headers).pipe(Effect.flatMap((actor) => callers.authorizeTool(actor, rpc)))
    ))
).pipe(Layer.provide(ToolCallers.Default))
