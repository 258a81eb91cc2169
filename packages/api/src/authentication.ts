import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { CurrentActor } from "@tks/domain/actor"
import { Schema } from "effect"
import { ServiceUnavailable, Unauthorized } from "@tks/domain/errors"
import { TooManyRequests } from "@tks/domain/rate-limit"

/** Every /v1 endpoint requires `Authorization: Bearer <token>` (SPEC 5). */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@tks/api/Authentication", {
  failure: Schema.Union(Unauthorized, ServiceUnavailable, TooManyRequests),
  provides: CurrentActor,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "An access token issued for a person of the organization.")
    )
  }
}) {}
