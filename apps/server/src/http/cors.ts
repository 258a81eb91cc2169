import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Config, ConfigError, Either } from "effect"
import { varyWith } from "./vary.js"

/**
 * CORS for browser callers on other origins. CORS_ORIGINS is a
 * comma-separated allow-list of origins (`https://app.example.com`), or `*`
 * for any; unset or empty means no CORS headers at all, so browsers keep
 * other origins out. No credentials: callers send bearer tokens, not cookies.
 */
export const CorsOriginsConfig = Config.string("CORS_ORIGINS").pipe(
  Config.withDefault(""),
  Config.mapOrFail((value) => {
    const origins = value.split(",").map((origin) => origin.trim()).filter((origin) => origin !== "")
    const bad = origins.find((origin) => origin !== "*" && !isOrigin(origin))
    return bad === undefined
      ? Either.right(origins)
      : Either.left(
        ConfigError.InvalidData(
          [],
          `CORS_ORIGINS: "${bad}" is not an origin; give scheme://host[:port] (no path), comma-separated, or *`
        )
      )
  })
)

const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "")
  } catch {
    return false
  }
}

const ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id"
const EXPOSE_HEADERS =
  "Idempotent-Replayed, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id"
const MAX_AGE = "600"

interface CorsOptions {
  readonly origins: ReadonlyArray<string>
  /** The methods a path answers (for preflight), or undefined for an unknown path. */
  readonly allowedMethods: (path: string) => ReadonlyArray<string> | undefined
}

interface CorsPolicy {
  /** The 204 answer to a preflight from an allowed origin for a known path; undefined for any other request. */
  readonly preflight: (request: HttpServerRequest.HttpServerRequest, path: string) => HttpServerResponse.HttpServerResponse | undefined
  /** The response with the CORS headers for the request's origin (or only `Vary: Origin`). */
  readonly apply: (
    request: HttpServerRequest.HttpServerRequest,
    response: HttpServerResponse.HttpServerResponse
  ) => HttpServerResponse.HttpServerResponse
}

/**
 * Adds the CORS headers for an allowed Origin, and answers its preflight
 * (OPTIONS with Access-Control-Request-Method) with 204 for a known path.
 * A preflight from another origin falls through: it gets the plain OPTIONS
 * answer, without CORS headers, and the browser refuses the call.
 * Undefined when no origin is allowed: then nothing is done at all.
 */
export const corsPolicy = (options: CorsOptions): CorsPolicy | undefined => {
  if (options.origins.length === 0) return undefined
  const anyOrigin = options.origins.includes("*")
  const allowed = new Set(options.origins)
  const allowedOrigin = (request: HttpServerRequest.HttpServerRequest) => {
    const origin = request.headers.origin
    return origin === undefined || !(anyOrigin || allowed.has(origin)) ? undefined : anyOrigin ? "*" : origin
  }
  return {
    preflight: (request, path) => {
      if (request.method !== "OPTIONS" || request.headers["access-control-request-method"] === undefined) return undefined
      const allowOrigin = allowedOrigin(request)
      const methods = allowOrigin === undefined ? undefined : options.allowedMethods(path)
      if (allowOrigin === undefined || methods === undefined) return undefined
      return HttpServerResponse.empty({
        status: 204,
        headers: {
          "access-control-allow-origin": allowOrigin,
          "access-control-allow-methods": methods.join(", "),
          "access-control-allow-headers": ALLOW_HEADERS,
          "access-control-max-age": MAX_AGE,
          vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
        }
      })
    },
    apply: (request, response) => {
      const allowOrigin = allowedOrigin(request)
      if (allowOrigin === undefined) return HttpServerResponse.setHeader(response, "vary", varyWith(response, "Origin"))
      return HttpServerResponse.setHeaders(response, {
        "access-control-allow-origin": allowOrigin,
        "access-control-expose-headers": EXPOSE_HEADERS,
        vary: varyWith(response, "Origin")
      })
    }
  }
}
