import type { Headers } from "@effect/platform"
import type { Rpc } from "@effect/rpc"
import { Context, Effect, Layer, Option } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import type { Actor } from "@tks/domain/actor"
import { parseBearer } from "@tks/domain/bearer"
import { authorize, isAccess } from "@tks/domain/policy"
import { ToolAuthorization, ToolPolicy } from "./contract/tool.js"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"

/**
 * The one place the tool transports decide who may call what:
 * `authenticate` resolves the bearer token of a call's `authorization`
 * header to the person as they are now and counts the call against the
 * token's default rate limit (as every HTTP request does); `authorizeTool`
 * checks the tool's declared policy with the same `authorize` as HTTP.
 */
export class ToolCallers extends Effect.Service<ToolCallers>()("@tks/mcp/ToolCallers", {
  effect: Effect.gen(function*() {
    const authenticator = yield* Authenticator

    const authenticate = (headers: Headers.Headers) =>
      withSqlErrorAnswers(
        // Counted against the token's default rate limit by the authenticating statement itself.
        authenticator.authenticate(parseBearer(headers.authorization) ?? "")
      )

    const authorizeTool = (actor: Actor, rpc: Rpc.AnyWithProps) =>
      Effect.gen(function*() {
        const policy = Context.getOption(rpc.annotations, ToolPolicy)
        // Fail closed: a tool nobody declared a policy for is a bug, never open.
        if (Option.isNone(policy)) return yield* Effect.dieMessage(`Tool ${rpc._tag} has no declared policy`)
        const access = authorize(actor, policy.value)
        return isAccess(access) ? access : yield* access
      })

    return { authenticate, authorizeTool } as const
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
