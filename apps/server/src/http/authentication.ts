import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Authentication } from "@tks/api/authentication"
import { Authenticator } from "@tks/core/auth/service"
import { parseBearer } from "./bearer.js"
import { withDatabaseAvailability } from "./infrastructure-errors.js"

/**
 * Resolves the bearer token to the person behind it, read fresh on every call.
 * The token the framework hands over is ignored: it is the header minus its
 * first seven characters, scheme unread (see ./bearer.ts).
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    return {
      bearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          withDatabaseAvailability(authenticator.authenticate(parseBearer(request.headers.authorization) ?? "")))
    }
  })
)
