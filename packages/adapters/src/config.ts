import { Config, ConfigError, Either } from "effect"

/** Settings the adapters, the core services and the server share the shape of. */

/**
 * A variable read as text and parsed by `parse`; on bad input the start-up
 * error names the variable, what it accepts and what it got, e.g.
 * `PORT must be a port number (1-65535), got "abc"`.
 */
export const setting = <A>(name: string, accepts: string, parse: (text: string) => A | undefined): Config.Config<A> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const value = parse(text)
      return value === undefined
        ? Either.left(ConfigError.InvalidData([], `${name} must be ${accepts}, got ${JSON.stringify(text)}`))
        : Either.right(value)
    })
  )

/** NODE_ENV=production: logs as JSON, no demo organization unless asked, no token ever printed, a warning when messages stay local. */
export const Production = Config.string("NODE_ENV").pipe(
  Config.withDefault("development"),
  Config.map((env) => env.trim().toLowerCase() === "production")
)

/** An http or https base address, `fallback` when unset. */
export const httpUrl = (name: string, fallback: string): Config.Config<URL> =>
  Config.url(name).pipe(
    Config.validate({
      message: `${name} must be an http or https address`,
      validation: (url) => url.protocol === "http:" || url.protocol === "https:"
    }),
    Config.withDefault(new URL(fallback))
  )

/** A whole number above zero, `fallback` when unset. */
export const positiveInteger = (name: string, fallback: number): Config.Config<number> =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a positive integer`, validation: (n) => n > 0 }),
    Config.withDefault(fallback)
  )

const flags: Readonly<Record<string, boolean>> = { true: true, yes: true, on: true, "1": true, false: false, no: false, off: false, "0": false }

/** A true-or-false setting (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`, in any case), `fallback` when unset. */
export const flagSetting = (name: string, fallback: boolean): Config.Config<boolean> =>
  setting(name, "true or false", (text) => flags[text.trim().toLowerCase()]).pipe(Config.withDefault(fallback))
