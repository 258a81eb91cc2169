import type { Headers } from "@effect/platform"
import type { Rpc } from "@effect/rpc"
import { Context, Effect, Layer, Option } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { Actor } from "@tks/domain/actor"
import { parseBearer } from "@tks/domain/bearer"
import { authorize, isAccess, type Policy } from "@tks/domain/policy"
import { ToolAuthorization, ToolPolicy } from "./contract/tool.js"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"

/**
 * The one place the tool transports decide who may call what:
 * `authenticate` resolves the bearer token of a call's `authorization`
 * header to the person as they are now and counts the call against the
 * token's default rate limit (as every HTTP request does); `authorizeTool`
 * checks the tool's declared policy, and `authorizePolicy` any other
 * declared policy (a resource read's), with the same `authorize` as HTTP.
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

    const authorizeTool = (actor: Actor, rpc: Rpc.AnyWithProps) =>
      Effect.gen(function*() {
        const policy = Context.getOption(rpc.annotations, ToolPolicy)
        // Fail closed: a tool nobody declared a policy for is a bug, never open.
        if (Option.isNone(policy)) return yield* Effect.dieMessage(`Tool ${rpc._tag} has no declared policy`)
        return yield* authorizePolicy(actor, policy.value)
      })

    return { authenticate, authorizeTool, authorizePolicy } as const
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
