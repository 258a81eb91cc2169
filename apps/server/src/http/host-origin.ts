import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Option } from "effect"
import { errorResponse } from "./error-response.js"

/**
 * DNS-rebinding protection for the tool endpoints (/mcp, /rpc), which the
 * MCP specification asks of every Streamable HTTP server: a web page on
 * another site can point its own host name at 127.0.0.1 and then call a
 * service on the caller's machine as if it were same-origin. Its requests
 * still carry that host name in Host and the page's origin in Origin, so a
 * request is refused (403) when
 *
 * - its Host is not PUBLIC_URL's host name, a loopback name (localhost,
 *   127.0.0.1, [::1]) or one in ALLOWED_HOSTS (each on any port, unless the
 *   entry names one), or
 * - it has an Origin that is not PUBLIC_URL's origin, a loopback origin
 *   (http or https, any port) or one in CORS_ORIGINS (`*`: any).
 *
 * No Origin is a program, not a browser: allowed. /v1 is left alone: it
 * answers only bearer tokens, which a page on another site does not have,
 * and CORS keeps browsers' reads to the allowed origins.
 */

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"]
const COLON = 58
const SLASH = 47

interface GuardOptions {
  /** These paths and everything under them. */
  readonly paths: ReadonlyArray<string>
  /** ALLOWED_HOSTS: host names, or host:port. */
  readonly allowedHosts: ReadonlyArray<string>
  /** CORS_ORIGINS: origins, or `*`. */
  readonly corsOrigins: ReadonlyArray<string>
  readonly publicUrl: Option.Option<string>
}

type Guard = (request: HttpServerRequest.HttpServerRequest, path: string) => HttpServerResponse.HttpServerResponse | undefined

const isPortAt = (text: string, start: number) => {
  const length = text.length - start
  if (length < 1 || length > 5) return false
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 48 || code > 57) return false
  }
  return true
}

/** `text` from `start` is `name`, alone or followed by `:port`. */
const isNameAt = (text: string, start: number, name: string) =>
  text.startsWith(name, start) &&
  (text.length === start + name.length || (text.charCodeAt(start + name.length) === COLON && isPortAt(text, start + name.length + 1)))

const schemeEnd = (origin: string) => origin.startsWith("http://") ? 7 : origin.startsWith("https://") ? 8 : -1

/** The parts of PUBLIC_URL the guard compares with; nothing when it is unset (its default is a loopback address). */
const publicParts = (publicUrl: Option.Option<string>) => {
  if (Option.isNone(publicUrl)) return undefined
  try {
    const url = new URL(publicUrl.value)
    return { hostname: url.hostname, origin: url.origin }
  } catch {
    return undefined
  }
}

// Other spellings of a path that the router takes as the same route: a
// request-target with scheme and host, any letter case, %-escapes, doubled slashes.
const UNUSUAL_PATH = /^[^/]|[A-Z%]|\/\//
const ABSOLUTE_FORM = /^https?:\/\/.*?\//i

/** The path as the router matches it (it ignores case, decodes escapes and collapses slashes), or undefined when it matches nothing. */
const routerPath = (path: string) => {
  try {
    const relative = path.charCodeAt(0) === SLASH ? path : path.replace(ABSOLUTE_FORM, "/")
    return decodeURI(relative.replace(/\/{2,}/g, "/")).toLowerCase()
  } catch {
    return undefined
  }
}

/**
 * The refusal for a request to a guarded path from a host or origin not
 * allowed, else undefined. Everything is computed here, once: a request
 * costs reading Host and Origin and a few string comparisons.
 */
export const hostOriginGuard = (options: GuardOptions): Guard | undefined => {
  if (options.paths.length === 0) return undefined
  const exactPaths = new Set(options.paths)
  const prefixes = options.paths.map((path) => `${path}/`)
  const publicUrl = publicParts(options.publicUrl)

  // Host: a name on any port, or exactly host:port.
  const anyPortNames = [...LOOPBACK_NAMES, ...(publicUrl === undefined ? [] : [publicUrl.hostname])]
  const exactHosts = new Set<string>()
  for (const entry of options.allowedHosts) {
    if (entry.startsWith("[") ? entry.endsWith("]") : !entry.includes(":")) anyPortNames.push(entry)
    else exactHosts.add(entry)
  }
  const hostAllowedAsIs = (host: string) => {
    if (exactHosts.has(host)) return true
    for (const name of anyPortNames) if (isNameAt(host, 0, name)) return true
    return false
  }
  // Host names are case-insensitive; clients send them in lower case, so the other is tried only then.
  const hostAllowed = (host: string) => hostAllowedAsIs(host) || (host !== host.toLowerCase() && hostAllowedAsIs(host.toLowerCase()))

  const anyOrigin = options.corsOrigins.includes("*")
  const exactOrigins = new Set(options.corsOrigins.filter((origin) => origin !== "*").map((origin) => origin.replace(/\/$/, "").toLowerCase()))
  if (publicUrl !== undefined) exactOrigins.add(publicUrl.origin)
  const originAllowedAsIs = (origin: string) => {
    if (exactOrigins.has(origin)) return true
    const start = schemeEnd(origin)
    if (start === -1) return false
    for (const name of LOOPBACK_NAMES) if (isNameAt(origin, start, name)) return true
    return false
  }
  const originAllowed = (origin: string) =>
    anyOrigin || originAllowedAsIs(origin) || (origin !== origin.toLowerCase() && originAllowedAsIs(origin.toLowerCase()))

  const guarded = (path: string) => {
    if (exactPaths.has(path)) return true
    for (const prefix of prefixes) if (path.startsWith(prefix)) return true
    if (!UNUSUAL_PATH.test(path)) return false
    const normalized = routerPath(path)
    if (normalized === undefined) return false
    if (exactPaths.has(normalized)) return true
    for (const prefix of prefixes) if (normalized.startsWith(prefix)) return true
    return false
  }

  // Made once: the edge adds the request's own headers to them.
  const wrongHost = errorResponse(403, { _tag: "Forbidden", code: "FORBIDDEN", message: "This host is not one this service answers for" })
  const wrongOrigin = errorResponse(403, { _tag: "Forbidden", code: "FORBIDDEN", message: "Requests from this origin are not allowed" })

  return (request, path) => {
    if (!guarded(path)) return undefined
    const host = request.headers.host
    if (host === undefined || !hostAllowed(host)) return wrongHost
    const origin = request.headers.origin
    if (origin !== undefined && !originAllowed(origin)) return wrongOrigin
    return undefined
  }
}
