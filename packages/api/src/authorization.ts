import { type HttpApiEndpoint, HttpApiSchema, type HttpMethod, OpenApi } from "@effect/platform"
import { Context, Option, SchemaAST } from "effect"
import { declaredByRoute } from "./declared-by-route.js"
import { deniedStatuses, describePolicy, type Policy } from "@tks/domain/policy"

/** The policy an endpoint is called under (see @tks/domain/policy). Every endpoint carries one. */
export class Authorization extends Context.Tag("@tks/api/Authorization")<Authorization, Policy>() {}

/** The HTTP statuses an endpoint's own error schema declares. */
const declaredStatuses = (ast: SchemaAST.AST): ReadonlySet<number> => {
  const statuses = new Set<number>()
  const visit = (node: SchemaAST.AST) => {
    if (SchemaAST.isUnion(node)) return node.types.forEach(visit)
    statuses.add(HttpApiSchema.getStatusErrorAST(node))
  }
  visit(ast)
  return statuses
}

/**
 * Declares who may call an endpoint. Apply after its errors and description
 * (only `limitedBy` may follow):
 * the OpenAPI operation gets the policy's sentence after its description,
 * and keeps a 403 or 404 response only when the policy or the endpoint
 * itself can answer with it (authentication adds both to every operation).
 */
export const requires = (policy: Policy) =>
<Name extends string, Method extends HttpMethod.HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) => {
  const statuses = new Set<number>([...declaredStatuses(endpoint.errorSchema.ast), ...deniedStatuses(policy)])
  const description = Context.getOption(endpoint.annotations, OpenApi.Description)
  return endpoint
    .annotate(Authorization, policy)
    .annotate(OpenApi.Transform, (operation) => {
      const responses = { ...(operation.responses as Record<string, unknown>) }
      for (const status of ["403", "404"]) if (!statuses.has(Number(status))) delete responses[status]
      return {
        ...operation,
        description: [Option.getOrUndefined(description), describePolicy(policy)].filter(Boolean).join("\n\n"),
        "x-authorization": {
          permission: policy.permission,
          scope: policy.scope,
          reach: policy.reach
        },
        responses
      }
    })
}

/** The policy of every endpoint of an API, by route key; endpoints without one are listed apart. */
export const policiesByRoute = (api: Parameters<typeof declaredByRoute>[0]) => declaredByRoute(api, Authorization)
