import { HttpApi, type HttpApiGroup, type HttpMethod, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { Option } from "effect"
import { abbreviate } from "@tks/domain/decode-issues"
import { errorResponse } from "./error-response.js"

/**
 * A known path called with a method it does not have is 405
 * METHOD_NOT_ALLOWED with `Allow` (RFC 9110 15.5.6), not 404; a plain
 * OPTIONS (no CORS preflight) is 204 with `Allow`. The table is computed
 * once from the HttpApi definition and the other routes.
 */
export interface RouteSpec {
  readonly method: string
  /** With `:name` segments, as the router takes it. */
  readonly path: string
}

type AllowedMethods = (path: string) => ReadonlyArray<string> | undefined

/** Every endpoint of an HttpApi (or those `which` keeps) as a RouteSpec (paths include the API's prefix). */
export const routesOfApi = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  which: (endpoint: { readonly method: HttpMethod.HttpMethod; readonly payloadSchema: Option.Option<unknown> }) => boolean = () => true
): ReadonlyArray<RouteSpec> => {
  const routes: Array<RouteSpec> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (which(endpoint)) routes.push({ method: endpoint.method, path: endpoint.path })
    }
  })
  return routes
}

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
const sortMethods = (methods: Iterable<string>) =>
  [...methods].sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99))

// Kept exact ("/v1/members/" is not "/v1/members"), as the router matches.
const segments = (path: string) => path.split("/")

/** The lookup: the methods a concrete path answers (HEAD with GET, OPTIONS always), or undefined for an unknown path. */
export const allowedMethodsTable = (routes: ReadonlyArray<RouteSpec>): AllowedMethods => {
  const patterns = new Map<string, { readonly parts: ReadonlyArray<string>; readonly methods: Set<string> }>()
  for (const route of routes) {
    const key = segments(route.path).map((part) => (part.startsWith(":") ? ":" : part)).join("/")
    const entry = patterns.get(key) ?? { parts: key.split("/"), methods: new Set<string>() }
    entry.methods.add(route.method.toUpperCase())
    if (route.method.toUpperCase() === "GET") entry.methods.add("HEAD")
    entry.methods.add("OPTIONS")
    patterns.set(key, entry)
  }
  const compiled = [...patterns.values()].map(({ methods, parts }) => ({ parts, methods: sortMethods(methods) }))
  return (path) => {
    const parts = segments(path)
    const found = new Set<string>()
    for (const pattern of compiled) {
      if (pattern.parts.length !== parts.length) continue
      if (pattern.parts.every((part, i) => (part === ":" ? parts[i] !== "" : part === parts[i]))) {
        for (const method of pattern.methods) found.add(method)
      }
    }
    return found.size === 0 ? undefined : sortMethods(found)
  }
}

/**
 * The answer to the router's RouteNotFound for a known path and a method it
 * lacks: 405 (or 204 for OPTIONS), with Allow. Undefined when the path is
 * unknown, or when the path's pattern has this method (then the router
 * refused the path itself, a parameter longer than it matches, 100
 * characters: that path names nothing, 404 like any id that names nothing).
 */
export const wrongMethodAnswer = (allowedMethods: AllowedMethods) =>
(request: HttpServerRequest.HttpServerRequest, path: string): HttpServerResponse.HttpServerResponse | undefined => {
  const methods = allowedMethods(path)
  if (methods === undefined) return undefined
  if (request.method !== "OPTIONS" && methods.includes(request.method)) return undefined
  const allow = methods.join(", ")
  if (request.method === "OPTIONS") return HttpServerResponse.empty({ status: 204, headers: { allow } })
  return errorResponse(405, {
    _tag: "MethodNotAllowed",
    code: "METHOD_NOT_ALLOWED",
    message: `${request.method} is not allowed on ${abbreviate(path)}; allowed: ${allow}`
  }, { allow })
}
