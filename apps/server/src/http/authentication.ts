import { Effect, Layer, Redacted } from "effect"
import { Authentication } from "@tks/api/authentication"
import { Authenticator } from "@tks/core/auth/service"
import { RateLimiter } from "@tks/core/rate-limits/service"
import { withInfrastructureErrors } from "./infrastructure-errors.js"
import { perTokenLimit } from "./rate-limit.js"

/** Resolves the bearer token to the person behind it, read fresh on every call, and counts the call against the token's default rate limit. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    const limiter = yield* RateLimiter
    return {
      bearer: (token) =>
        withInfrastructureErrors(authenticator.authenticate(Redacted.value(token))).pipe(
          Effect.tap((actor) => perTokenLimit(limiter, actor))
        )
    }
  })
)
