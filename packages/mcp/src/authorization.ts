import { Context, Effect, Layer, Option } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { RateLimiter } from "@tks/core/rate-limits/service"
import { parseBearer } from "@tks/domain/bearer"
import { authorize, isAccess } from "@tks/domain/policy"
import { ToolAuthorization, ToolPolicy } from "./contract/tool.js"
import { withToolInfrastructureErrors } from "./infrastructure-errors.js"

/**
 * The one place the tool transports decide who may call what, on every
 * call: the bearer token of the call's `authorization` header is resolved
 * to the person as they are now, the call counts against the token's
 * default rate limit (as every HTTP request does), and the tool's declared
 * policy is checked with the same `authorize` as HTTP.
 */
export const ToolAuthorizationLive = Layer.effect(
  ToolAuthorization,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    const limiter = yield* RateLimiter
    return ToolAuthorization.of(({ headers, rpc }) =>
      withToolInfrastructureErrors(
        Effect.gen(function*() {
          const policy = Context.getOption(rpc.annotations, ToolPolicy)
          // Fail closed: a tool nobody declared a policy for is a bug, never open.
          if (Option.isNone(policy)) return yield* Effect.dieMessage(`Tool ${rpc._tag} has no declared policy`)
          const actor = yield* authenticator.authenticate(parseBearer(headers.authorization) ?? "")
          yield* limiter.hit({ organizationId: actor.organizationId, key: actor.tokenId })
          const access = authorize(actor, policy.value)
          return isAccess(access) ? access : yield* access
        })
      )
    )
  })
)
