import { Effect, Layer, Redacted } from "effect"
import { Authentication } from "@tks/api/authentication"
import { Authenticator } from "@tks/core/auth/service"
import { withInfrastructureErrors } from "./infrastructure-errors.js"

/** Resolves the bearer token to the person behind it, read fresh on every call. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    return {
      bearer: (token) => withInfrastructureErrors(authenticator.authenticate(Redacted.value(token)))
    }
  })
)
