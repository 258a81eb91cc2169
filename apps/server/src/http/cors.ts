import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Config, ConfigError, Context, Effect, Either } from "effect"
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

const ALLOW_HEADERS = "Authorization, Content-Type, X-Request-Id"
const EXPOSE_HEADERS =
  "RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id"
const MAX_AGE = "600"

export interface CorsOptions {
  readonly origins: ReadonlyArray<string>
  /** The methods a path answers (for preflight), or undefined for an unknown path. */
  readonly allowedMethods: (path: string) => ReadonlyArray<string> | undefined
}

/**
 * Adds the CORS headers for an allowed Origin, and answers its preflight
 * (OPTIONS with Access-Control-Request-Method) with 204 for a known path.
 * A preflight from another origin falls through: it gets the plain OPTIONS
 * answer, without CORS headers, and the browser refuses the call.
 */
export const withCors = (options: CorsOptions) => {
  const anyOrigin = options.origins.includes("*")
  const allowed = new Set(options.origins)
  return <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> => {
    if (options.origins.length === 0) return app
    return Effect.withFiberRuntime((fiber) => {
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const headers = request.headers
      const origin = headers.origin
      if (origin === undefined || !(anyOrigin || allowed.has(origin))) {
        return Effect.map(app, (response) => HttpServerResponse.setHeader(response, "vary", varyWith(response, "Origin")))
      }
      const allowOrigin = anyOrigin ? "*" : origin
      if (request.method === "OPTIONS" && headers["access-control-request-method"] !== undefined) {
        const methods = options.allowedMethods(request.url.split("?")[0]!)
        if (methods !== undefined) {
          return Effect.succeed(HttpServerResponse.empty({
            status: 204,
            headers: {
              "access-control-allow-origin": allowOrigin,
              "access-control-allow-methods": methods.join(", "),
              "access-control-allow-headers": ALLOW_HEADERS,
              "access-control-max-age": MAX_AGE,
              vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
            }
          }))
        }
      }
      return Effect.map(app, (response) =>
        HttpServerResponse.setHeaders(response, {
          "access-control-allow-origin": allowOrigin,
          "access-control-expose-headers": EXPOSE_HEADERS,
          vary: varyWith(response, "Origin")
        }))
    })
  }
}
