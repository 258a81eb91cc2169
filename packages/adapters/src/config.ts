import { Config } from "effect"

/** Settings the adapters share the shape of. */

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
