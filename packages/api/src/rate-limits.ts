import { type HttpApiEndpoint, type HttpMethod, OpenApi } from "@effect/platform"
import { Context, Option } from "effect"
import { declaredByRoute } from "./declared-by-route.js"
import { describeRule, type RateLimitRule } from "@tks/domain/rate-limit-rules"

/** The route limit an endpoint is counted against (see @tks/domain/rate-limit-rules), besides the per-token default. */
export class RouteLimit extends Context.Tag("@tks/api/RouteLimit")<RouteLimit, RateLimitRule>() {}

/**
 * Declares an endpoint's route limit, as `requires` declares its policy:
 * the edge counts it once the policy has passed, before the handler runs,
 * and the OpenAPI operation shows it as `x-rate-limit`. Apply after
 * `requires`: it keeps the operation changes made before it.
 */
export const limitedBy = (rule: RateLimitRule) =>
<Name extends string, Method extends HttpMethod.HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) => {
  const before = Context.getOption(endpoint.annotations, OpenApi.Transform)
  return endpoint
    .annotate(RouteLimit, rule)
    .annotate(OpenApi.Transform, (operation) => ({
      ...(Option.isSome(before) ? before.value(operation) : operation),
      "x-rate-limit": describeRule(rule)
    }))
}

/** The route limit of every endpoint that declares one, by route key. */
export const routeLimitsByRoute = (api: Parameters<typeof declaredByRoute>[0]) => declaredByRoute(api, RouteLimit).byRoute
