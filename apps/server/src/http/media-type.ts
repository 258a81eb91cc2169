import type { HttpApi, HttpApiGroup } from "@effect/platform"
import { HttpMethod, type HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Option } from "effect"
import { allowedMethodsTable, type RouteSpec, routesOfApi } from "./method-not-allowed.js"
import { abbreviate } from "@tks/domain/decode-issues"
import { errorResponse } from "./error-response.js"

/**
 * The routes of an HttpApi whose endpoint takes a body (a payload schema on
 * a method that has one): each takes JSON and nothing else.
 */
export const jsonBodyRoutesOfApi = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ReadonlyArray<RouteSpec> =>
  routesOfApi(api, (endpoint) => HttpMethod.hasBody(endpoint.method) && Option.isSome(endpoint.payloadSchema))

/**
 * Whether a Content-Type is JSON as the framework reads it: exactly
 * `application/json`, any case, with parameters, a charset only if UTF-8
 * (RFC 8259). A `+json` type (`application/merge-patch+json`) is refused:
 * the framework would read its body as bytes, not JSON.
 */
const isJsonMediaType = (contentType: string): boolean => {
  const [type, ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase())
  if (type !== "application/json") return false
  return parameters.every((parameter) => {
    const [name, value] = parameter.split("=").map((part) => part.trim())
    return name !== "charset" || value === "utf-8" || value === "\"utf-8\"" || value === "utf8"
  })
}

/**
 * A route that takes a JSON body answers any other Content-Type with 415
 * UNSUPPORTED_MEDIA_TYPE before a byte of the body is read: the framework
 * would otherwise parse multipart or form bodies (a 500 on a malformed
 * multipart body, a confusing 400 on a form). A request without a
 * Content-Type is read as JSON, as the framework does. Other routes (reads,
 * /mcp, /rpc) are not checked here.
 */
export const jsonBodyRefusal = (routes: ReadonlyArray<RouteSpec>) => {
  const methodsOf = allowedMethodsTable(routes)
  return (request: HttpServerRequest.HttpServerRequest, path: string): HttpServerResponse.HttpServerResponse | undefined => {
    const contentType = request.headers["content-type"]
    if (contentType === undefined || !HttpMethod.hasBody(request.method as HttpMethod.HttpMethod)) return undefined
    if (!(methodsOf(path)?.includes(request.method) ?? false)) return undefined
    if (isJsonMediaType(contentType)) return undefined
    return errorResponse(415, {
      _tag: "UnsupportedMediaType",
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: `The body must be JSON (Content-Type: application/json), not ${abbreviate(contentType)}`
    })
  }
}
