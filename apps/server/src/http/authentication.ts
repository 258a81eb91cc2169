import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "@tks/api/api"
import { Authentication } from "@tks/api/authentication"
import { policiesByRoute } from "@tks/api/authorization"
import { routeLimitsByRoute } from "@tks/api/rate-limits"
import { Authenticator } from "@tks/core/auth/service"
import { RateLimiter } from "@tks/core/rate-limits/service"
import { authorize, isAccess } from "@tks/domain/policy"
import { rateLimitSubject } from "@tks/domain/actor"
import { parseBearer } from "@tks/domain/bearer"
import { withDatabaseAvailability } from "./infrastructure-errors.js"
import { withPerTokenLimitHeaders, withRateLimitHeaders } from "./rate-limit.js"

/**
 * The one place the HTTP transport decides who may call what: the bearer
 * token is resolved to the person as they are now and the call is counted
 * against the token's default rate limit (one statement), then the matched endpoint's
 * declared policy is checked, then its declared route limit (if any) is
 * counted for the token, and the handler runs with the resulting `Access`:
 * a denied or refused call reaches no handler and does nothing.
 *
 * The token the framework hands over is ignored: it is the header minus its
 * first seven characters, scheme unread (see ./bearer.ts).
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const authenticator = yield* Authenticator
    const limiter = yield* RateLimiter
    const { byRoute, missing } = policiesByRoute(Api)
    const limits = routeLimitsByRoute(Api)
    // Fail closed, at start: an endpoint nobody declared a policy for would otherwise be open.
    if (missing.length > 0) return yield* Effect.dieMessage(`Endpoints without a declared policy: ${missing.join(", ")}`)
    return {
      bearer: () =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const token = parseBearer(request.headers.authorization) ?? ""
          const { actor } = yield* withPerTokenLimitHeaders(withDatabaseAvailability(authenticator.authenticateRequest(token)))
          const route = yield* HttpRouter.RouteContext
          const key = `${route.route.method} ${route.route.path}`
          const policy = byRoute.get(key)
          if (policy === undefined) return yield* Effect.dieMessage(`No policy for ${key}`)
          const access = authorize(actor, policy)
          if (!isAccess(access)) return yield* access
          const limit = limits.get(key)
          if (limit !== undefined) {
            yield* withRateLimitHeaders(
              withDatabaseAvailability(limiter.consume(limit, { organizationId: actor.organizationId, key: rateLimitSubject(actor) }))
            )
          }
          return access
        })
    }
  })
)
