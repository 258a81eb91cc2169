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

/** HOST: the address the HTTP listener binds (default 0.0.0.0: every interface). */
export const HostConfig = Config.nonEmptyString("HOST").pipe(Config.withDefault("0.0.0.0"))

/**
 * The HTTP listener: PORT (default 3000), HOST (default 0.0.0.0), PUBLIC_URL
 * (how callers reach it), and SEED_DEMO (default true, false in production).
 */
export const ServerConfig = Config.all({
  production: Production,
  port: portSetting("PORT").pipe(Config.withDefault(3000)),
  host: HostConfig,
  publicUrl: Config.option(setting("PUBLIC_URL", "an http:// or https:// URL", httpUrl)),
  seedDemo: withEnvironmentDefault(
    setting("SEED_DEMO", "true or false", (text) => flags[text.trim().toLowerCase()]),
    (production) => !production
  )
})
