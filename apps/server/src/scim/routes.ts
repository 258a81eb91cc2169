import { HttpLayerRouter, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"
import { type DirectoryCaller, DirectoryConnections } from "@tks/core/directory/connections"
import { resourceTypeById, resourceTypesList, SCIM_MAX_RESULTS, schemaById, schemas, serviceProviderConfig } from "@tks/core/scim/discovery"
import { ScimNotFound } from "@tks/core/scim/errors"
import { ScimInvalid, userResource, userVersion } from "@tks/core/scim/user-resource"
import { groupResource } from "@tks/core/scim/group-resource"
import { ScimGroups } from "@tks/core/scim/groups"
import { RateLimiter } from "@tks/core/rate-limits/service"
import { ScimUsers } from "@tks/core/scim/users"
import { directoryRequests } from "@tks/domain/rate-limit-rules"
import { SCIM_BASE_PATH } from "@tks/domain/scim"
import { PublicUrlConfig } from "../config.js"
import type { RouteSpec } from "../http/method-not-allowed.js"
import { scimJson, scimList } from "./answers.js"
import { type ScimFailure, scimFailureAnswer } from "./failures.js"
import { excludesMembers, listQuery, projectAttributes } from "./query.js"

const at = (path: `/${string}`): `/${string}` => `${SCIM_BASE_PATH}${path}`

/** The resource endpoints under the SCIM root. */
const USERS = "/Users"
const GROUPS = "/Groups"

/** The SCIM routes, for the edge's method table. */
export const ScimRouteSpecs: ReadonlyArray<RouteSpec> = [
  { method: "GET", path: at("/ServiceProviderConfig") },
  { method: "GET", path: at("/ResourceTypes") },
  { method: "GET", path: at("/ResourceTypes/:id") },
  { method: "GET", path: at("/Schemas") },
  { method: "GET", path: at("/Schemas/:id") },
  { method: "GET", path: at(USERS) },
  { method: "POST", path: at(USERS) },
  { method: "GET", path: at(`${USERS}/:id`) },
  { method: "PUT", path: at(`${USERS}/:id`) },
  { method: "PATCH", path: at(`${USERS}/:id`) },
  { method: "DELETE", path: at(`${USERS}/:id`) },
  { method: "GET", path: at(GROUPS) },
  { method: "POST", path: at(GROUPS) },
  { method: "GET", path: at(`${GROUPS}/:id`) },
  { method: "PUT", path: at(`${GROUPS}/:id`) },
  { method: "PATCH", path: at(`${GROUPS}/:id`) },
  { method: "DELETE", path: at(`${GROUPS}/:id`) }
]

const bearerOf = (request: HttpServerRequest.HttpServerRequest) => {
  const header = request.headers["authorization"]
  const match = header === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(header)
  return match === null ? undefined : match[1]
}

/** The request's JSON body (as `application/scim+json` or plain JSON); a body that is not JSON is invalidSyntax. */
const bodyOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(Effect.orElseSucceed(request.text, () => ""), (text) =>
    Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: () => new ScimInvalid({ scimType: "invalidSyntax", detail: "The body is not JSON" })
    }))

const ifMatchOf = (request: HttpServerRequest.HttpServerRequest) => request.headers["if-match"] ?? null

/**
 * The SCIM 2.0 service provider at /scim/v2 (docs/directory-sync.md): every
 * request is authenticated by the organization's directory-connection
 * token (outside any transaction, so a refusal's AUTH event stays), then
 * handed to one core service. Answers are `application/scim+json`; every
 * failure is a SCIM error body (failures.ts).
 */
export const ScimRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function*() {
    const connections = yield* DirectoryConnections
    const users = yield* ScimUsers
    const groups = yield* ScimGroups
    const publicUrl = yield* PublicUrlConfig
    const limiter = yield* RateLimiter

    /** Where this SCIM root is reached, for the resources' locations: PUBLIC_URL, else the request's own host. */
    const baseOf = (request: HttpServerRequest.HttpServerRequest) =>
      Option.match(publicUrl, {
        onSome: (url) => `${url.replace(/\/+$/, "")}${SCIM_BASE_PATH}`,
        onNone: () => `http://${request.headers["host"] ?? "localhost"}${SCIM_BASE_PATH}`
      })

    const handle = <R>(
      run: (
        caller: DirectoryCaller,
        request: HttpServerRequest.HttpServerRequest,
        base: string
      ) => Effect.Effect<HttpServerResponse.HttpServerResponse, ScimFailure | SqlError, R>
    ) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const caller = yield* connections.authenticate(bearerOf(request))
        yield* limiter.consume(directoryRequests, { organizationId: caller.orgId, key: "directory" })
        return yield* run(caller, request, baseOf(request))
      }).pipe(withSqlErrorAnswers, Effect.catchAll(scimFailureAnswer))

    const idParam = Effect.map(HttpRouter.params, (params) => params["id"] ?? "")

    const userAnswer = (status: number, base: string, record: Parameters<typeof userResource>[0], request: HttpServerRequest.HttpServerRequest) => {
      const location = `${base}${USERS}/${record.id}`
      return Effect.map(projectAttributes(userResource(record, location), request), (resource) =>
        scimJson(status, resource, { etag: userVersion(record), ...(status === 201 ? { location } : {}) }))
    }

    yield* router.add("GET", at("/ServiceProviderConfig"), handle((_, __, base) => Effect.succeed(scimJson(200, serviceProviderConfig(base, `${base.replace(SCIM_BASE_PATH, "")}/docs`)))))
    yield* router.add("GET", at("/ResourceTypes"), handle((_, __, base) => Effect.succeed(scimJson(200, resourceTypesList(base)))))
    yield* router.add(
      "GET",
      at("/ResourceTypes/:id"),
      handle((_, __, base) =>
        Effect.flatMap(idParam, (id) => {
          const found = resourceTypeById(base, id)
          return found === null ? Effect.fail(new ScimNotFound({ detail: `No resource type ${id}` })) : Effect.succeed(scimJson(200, found))
        }))
    )
    yield* router.add("GET", at("/Schemas"), handle((_, __, base) => Effect.succeed(scimJson(200, schemas(base)))))
    yield* router.add(
      "GET",
      at("/Schemas/:id"),
      handle((_, __, base) =>
        Effect.flatMap(idParam, (id) => {
          const found = schemaById(base, id)
          return found === null ? Effect.fail(new ScimNotFound({ detail: `No schema ${id}` })) : Effect.succeed(scimJson(200, found))
        }))
    )

    yield* router.add(
      "GET",
      at(USERS),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const query = yield* listQuery(request, SCIM_MAX_RESULTS)
          const page = yield* users.list(caller, query)
          const resources = yield* Effect.forEach(page.records, (record) =>
            projectAttributes(userResource(record, `${base}${USERS}/${record.id}`), request))
          return scimList(page.total, query.startIndex, resources)
        }))
    )
    yield* router.add(
      "POST",
      at(USERS),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* users.create(caller, yield* bodyOf(request))
          return yield* userAnswer(201, base, record, request)
        }))
    )
    yield* router.add(
      "GET",
      at(`${USERS}/:id`),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* users.get(caller, yield* idParam)
          return yield* userAnswer(200, base, record, request)
        }))
    )
    yield* router.add(
      "PUT",
      at(`${USERS}/:id`),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* users.replace(caller, yield* idParam, yield* bodyOf(request), ifMatchOf(request))
          return yield* userAnswer(200, base, record, request)
        }))
    )
    yield* router.add(
      "PATCH",
      at(`${USERS}/:id`),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* users.patch(caller, yield* idParam, yield* bodyOf(request), ifMatchOf(request))
          return yield* userAnswer(200, base, record, request)
        }))
    )
    yield* router.add(
      "DELETE",
      at(`${USERS}/:id`),
      handle((caller, request) =>
        Effect.gen(function*() {
          yield* users.remove(caller, yield* idParam, ifMatchOf(request))
          return HttpServerResponse.empty({ status: 204 })
        }))
    )

    const groupAnswer = (status: number, base: string, record: Parameters<typeof groupResource>[0], request: HttpServerRequest.HttpServerRequest) =>
      Effect.map(projectAttributes(groupResource(record, base), request), (resource) =>
        scimJson(status, resource, status === 201 ? { location: `${base}${GROUPS}/${record.id}` } : {}))

    yield* router.add(
      "GET",
      at(GROUPS),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const query = yield* listQuery(request, SCIM_MAX_RESULTS)
          // Entra ID lists groups without their members (excludedAttributes=members): then they are not read at all.
          const withMembers = !excludesMembers(request)
          const page = yield* groups.list(caller, { ...query, withMembers })
          const resources = yield* Effect.forEach(page.records, (record) =>
            projectAttributes(groupResource(record, base, { members: withMembers }), request))
          return scimList(page.total, query.startIndex, resources)
        }))
    )
    yield* router.add(
      "POST",
      at(GROUPS),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* groups.create(caller, yield* bodyOf(request))
          return yield* groupAnswer(201, base, record, request)
        }))
    )
    yield* router.add(
      "GET",
      at(`${GROUPS}/:id`),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* groups.get(caller, yield* idParam)
          return yield* groupAnswer(200, base, record, request)
        }))
    )
    yield* router.add(
      "PUT",
      at(`${GROUPS}/:id`),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* groups.replace(caller, yield* idParam, yield* bodyOf(request))
          return yield* groupAnswer(200, base, record, request)
        }))
    )
    yield* router.add(
      "PATCH",
      at(`${GROUPS}/:id`),
      handle((caller, request, base) =>
        Effect.gen(function*() {
          const record = yield* groups.patch(caller, yield* idParam, yield* bodyOf(request))
          return yield* groupAnswer(200, base, record, request)
        }))
    )
    yield* router.add(
      "DELETE",
      at(`${GROUPS}/:id`),
      handle((caller) =>
        Effect.gen(function*() {
          yield* groups.remove(caller, yield* idParam)
          return HttpServerResponse.empty({ status: 204 })
        }))
    )
  })
)
