import { Config, Option } from "effect"
import { Production, setting } from "@tks/adapters/config"

// Shared with the adapters and the core services, which read settings of their own.
export { Production, setting }

const portNumber = (text: string) => {
  const trimmed = text.trim()
  const port = /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : Number.NaN
  return port >= 1 && port <= 65_535 ? port : undefined
}

/** A parser of whole numbers from `min`, for `setting`. */
export const integer = (min: number) => (text: string) => {
  const trimmed = text.trim()
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN
  return Number.isSafeInteger(value) && value >= min ? value : undefined
}

const flags: Record<string, boolean> = { true: true, yes: true, on: true, "1": true, false: false, no: false, off: false, "0": false }

const httpUrl = (text: string) => {
  try {
    const url = new URL(text.trim())
    return url.protocol === "http:" || url.protocol === "https:" ? text.trim().replace(/\/+$/, "") : undefined
  } catch {
    return undefined
  }
}

/** `config`, or when its variable is unset the default for this environment (production or not). */
export const withEnvironmentDefault = <A>(config: Config.Config<A>, fallback: (production: boolean) => A) =>
  Config.all([Production, Config.option(config)]).pipe(
    Config.map(([production, value]) => Option.getOrElse(value, () => fallback(production)))
  )

/** A port number setting (1-65535). */
export const portSetting = (name: string) => setting(name, "a port number (1-65535)", portNumber)

/** PUBLIC_URL: how callers reach the service (unset: http://localhost:$PORT). */
export const PublicUrlConfig = Config.option(setting("PUBLIC_URL", "an http:// or https:// URL", httpUrl))

const HOST_NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/

/** `name` or `name:port`, in lower case; undefined for anything else (a scheme, a path, a bad port). */
const hostEntry = (text: string) => {
  const entry = text.trim().toLowerCase()
  const colon = entry.lastIndexOf(":")
  const hasPort = colon !== -1 && !entry.slice(colon).includes("]")
  const name = hasPort ? entry.slice(0, colon) : entry
  if (!HOST_NAME.test(name)) return undefined
  if (hasPort && portNumber(entry.slice(colon + 1)) === undefined) return undefined
  return entry
}

const hostList = (text: string) => {
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  const parsed = entries.map(hostEntry)
  return parsed.every((entry): entry is string => entry !== undefined) ? parsed : undefined
}

/**
 * ALLOWED_HOSTS: the host names, besides PUBLIC_URL's and the loopback ones,
 * that /mcp and /rpc answer for (comma-separated, each optionally with a
 * port: without one, any port). Anything else in Host is refused there, as
 * a DNS-rebinding attack would send (http/host-origin.ts).
 */
export const AllowedHostsConfig = setting(
  "ALLOWED_HOSTS",
  "comma-separated host names, each optionally with a port (api.example.com, 10.0.0.5:3000)",
  hostList
).pipe(Config.withDefault([]))

/** HOST: the address the HTTP listener binds (default 0.0.0.0: every interface). */
export const HostConfig = Config.nonEmptyString("HOST").pipe(Config.withDefault("0.0.0.0"))

/**
 * The HTTP listener: PORT (default 3000), HOST (default 0.0.0.0), PUBLIC_URL
 * (how callers reach it), ALLOWED_HOSTS (the other names /mcp and /rpc
 * answer for), and SEED_DEMO (default true, false in production).
 */
export const ServerConfig = Config.all({
  production: Production,
  port: portSetting("PORT").pipe(Config.withDefault(3000)),
  host: HostConfig,
  publicUrl: PublicUrlConfig,
  allowedHosts: AllowedHostsConfig,
  seedDemo: withEnvironmentDefault(
    setting("SEED_DEMO", "true or false", (text) => flags[text.trim().toLowerCase()]),
    (production) => !production
  )
})
