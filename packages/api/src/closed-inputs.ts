import { type HttpApi, type HttpApiEndpoint, type HttpApiGroup, HttpApiMiddleware, HttpApiSchema, HttpMethod } from "@effect/platform"
import { Context, Option, type Schema, SchemaAST } from "effect"
import { closedInputOptions } from "@tks/domain/decode-issues"
import { BadRequest } from "@tks/domain/errors"

/**
 * Refuses any query parameter on an endpoint that declares none (400
 * VALIDATION_ERROR naming each), after authentication: such an endpoint has
 * no query schema to decode it closed. The server implements it for the
 * routes `queryFreeRoutes` lists.
 */
export class ClosedQuery extends HttpApiMiddleware.Tag<ClosedQuery>()("@tks/api/ClosedQuery", { failure: BadRequest }) {}

/**
 * The schema, decoded closed at every level below it (nested objects inherit
 * the options). Re-annotating drops a schema's identifier, so it is given
 * again: the OpenAPI component keeps its name.
 */
const closed = (schema: Schema.Schema.Any) => {
  const identifier = SchemaAST.getIdentifierAnnotation(schema.ast)
  return schema.annotations({
    parseOptions: closedInputOptions,
    ...(Option.isSome(identifier) ? { identifier: identifier.value } : {})
  }) as never
}

type Endpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
type Group = HttpApiGroup.HttpApiGroup.AnyWithProps

const closeEndpoint = (endpoint: Endpoint): Endpoint => {
  let result = endpoint
  const payload = Option.getOrUndefined(endpoint.payloadSchema)
  if (payload !== undefined) result = result.setPayload(closed(payload)) as unknown as Endpoint
  const urlParams = Option.getOrUndefined(endpoint.urlParamsSchema)
  if (urlParams !== undefined) result = result.setUrlParams(closed(urlParams)) as unknown as Endpoint
  return result
}

/**
 * The group with its endpoints' inputs closed and ClosedQuery first among
 * its middlewares: the last one added runs first, so it runs after
 * authentication (a caller without a token is told 401, whatever the query).
 */
const closeGroup = (group: Group): Group => {
  let withClosedEndpoints = group
  for (const endpoint of Object.values(group.endpoints)) withClosedEndpoints = withClosedEndpoints.add(closeEndpoint(endpoint))
  // A fresh copy to set the middlewares on, as HttpApi.addHttpApi does.
  return Object.assign(withClosedEndpoints.annotateContext(Context.empty()), {
    middlewares: new Set([ClosedQuery as unknown as HttpApiMiddleware.TagClassAny, ...group.middlewares]),
    errorSchema: HttpApiSchema.UnionUnify(group.errorSchema, ClosedQuery.failure)
  })
}

type WithClosedQuery<G> = G extends HttpApiGroup.HttpApiGroup<infer Id, infer Endpoints, infer Error, infer R, infer TopLevel>
  ? HttpApiGroup.HttpApiGroup<Id, Endpoints, Error | BadRequest, R | ClosedQuery, TopLevel>
  : never

/**
 * The API with closed inputs, done here once so that no endpoint is left
 * open: every body and query schema is decoded with `closedInputOptions` (a
 * field or parameter it does not declare is an error, every problem listed),
 * and an endpoint that declares no query refuses any (ClosedQuery). The
 * types, the OpenAPI document (it already says `additionalProperties:
 * false`) and derived clients stay as they were.
 */
export const closeInputs = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, WithClosedQuery<Groups>, E, R> => {
  let result = api as unknown as HttpApi.HttpApi.AnyWithProps
  for (const group of Object.values(result.groups) as ReadonlyArray<Group>) result = result.add(closeGroup(group))
  return result as never
}

interface EndpointInputs {
  readonly method: HttpMethod.HttpMethod
  readonly path: string
  readonly payloadSchema: Option.Option<unknown>
  readonly urlParamsSchema: Option.Option<unknown>
}

/**
 * The routes (`${method} ${path}`, as the router names them) whose endpoint
 * declares no query parameters: no query schema, and no payload read from
 * the query (as a payload on a method without a body is).
 */
export const queryFreeRoutes = (api: {
  readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, EndpointInputs>> }>>
}): ReadonlySet<string> => {
  const routes = new Set<string>()
  for (const group of Object.values(api.groups)) {
    for (const endpoint of Object.values(group.endpoints)) {
      const payloadInQuery = Option.isSome(endpoint.payloadSchema) && !HttpMethod.hasBody(endpoint.method)
      if (Option.isNone(endpoint.urlParamsSchema) && !payloadInQuery) routes.add(`${endpoint.method} ${endpoint.path}`)
    }
  }
  return routes
}
