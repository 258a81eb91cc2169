import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound, ServiceUnavailable, Unauthorized } from "@tks/domain/errors"
import { CurrentAccess } from "@tks/domain/policy"
import { TooManyRequests } from "@tks/domain/rate-limit"

/**
 * Every /v1 endpoint requires `Authorization: Bearer <token>`, and
 * the same step decides the endpoint's declared policy (./authorization.ts):
 * the handler runs with the caller's `Access`, or not at all.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@tks/api/Authentication", {
  failure: Schema.Union(Unauthorized, Forbidden, NotFound, TooManyRequests, ServiceUnavailable),
  provides: CurrentAccess,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "An access token issued for a person of the organization.")
    )
  }
}) {}
