import { type HttpApiEndpoint, HttpApiSchema, type HttpMethod, OpenApi } from "@effect/platform"
import { Context, Option, SchemaAST } from "effect"
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
 * Declares who may call an endpoint. Apply last in the endpoint's chain:
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

/** The policy of every endpoint of an API, by `${method} ${path}` (the router's route key); endpoints without one are listed apart. */
interface EndpointLike {
  readonly method: string
  readonly path: string
  readonly annotations: Context.Context<never>
}

export const policiesByRoute = (
  api: { readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, EndpointLike>> }>> }
) => {
  const byRoute = new Map<string, Policy>()
  const missing: Array<string> = []
  for (const group of Object.values(api.groups)) {
    for (const endpoint of Object.values(group.endpoints)) {
      const key = `${endpoint.method} ${endpoint.path}`
      const declared = Context.getOption(endpoint.annotations, Authorization)
      if (Option.isSome(declared)) byRoute.set(key, declared.value)
      else missing.push(key)
    }
  }
  return { byRoute, missing } as const
}
