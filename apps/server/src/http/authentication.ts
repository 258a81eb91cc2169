import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "@tks/api/api"
import { Authentication } from "@tks/api/authentication"
import { policiesByRoute } from "@tks/api/authorization"
import { Authenticator } from "@tks/core/auth/service"
import { authorize, isAccess } from "@tks/domain/policy"
import { parseBearer } from "@tks/domain/bearer"
import { withDatabaseAvailability } from "./infrastructure-errors.js"
import { withPerTokenLimitHeaders } from "./rate-limit.js"

/**
 * The one place the HTTP transport decides who may call what: the bearer
 * token is resolved to the person as they are now and the call is counted
 * against the token's default rate limit (one statement), then the matched endpoint's
 * declared policy is checked, and the handler runs with the resulting
 * `Access`.
 *
 * The token the framework hands over is ignored: it is the header minus its
 * first seven characters, scheme unread (see ./bearer.ts).
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    const { byRoute, missing } = policiesByRoute(Api)
    // Fail closed, at start: an endpoint nobody declared a policy for would otherwise be open.
    if (missing.length > 0) return yield* Effect.dieMessage(`Endpoints without a declared policy: ${missing.join(", ")}`)
    return {
      bearer: () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const token = parseBearer(request.headers.authorization) ?? ""
          const { actor } = yield* withPerTokenLimitHeaders(withDatabaseAvailability(authenticator.authenticateRequest(token)))
          const route = yield* HttpRouter.RouteContext
          const policy = byRoute.get(`${route.route.method} ${route.route.path}`)
          if (policy === undefined) return yield* Effect.dieMessage(`No policy for ${route.route.method} ${route.route.path}`)
          const access = authorize(actor, policy)
          return isAccess(access) ? access : yield* access
        })
    }
  })
)
