import { Config, Effect, Layer, Logger, LogLevel } from "effect"

/**
 * Structured logs: JSON lines (LOG_FORMAT=json, the default when
 * NODE_ENV=production) or a readable form for a terminal; LOG_LEVEL sets
 * the minimum level (default info).
 */
export const LoggingLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const production = (yield* Config.string("NODE_ENV").pipe(Config.withDefault("development"))) === "production"
    const format = yield* Config.literal("json", "logfmt", "pretty")("LOG_FORMAT").pipe(
      Config.withDefault(production ? "json" : "logfmt")
    )
    const level = yield* Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))
    const logger = format === "json" ? Logger.json : format === "pretty" ? Logger.pretty : Logger.logFmt
    return Layer.merge(logger, Logger.minimumLogLevel(level))
  })
)
