import { Config, Effect, Layer, Logger } from "effect"

/**
 * The CLI's logs, on stderr (stdout carries only a command's result, JSON).
 * JSON lines when NODE_ENV=production, as the server writes them, so one log
 * pipeline reads both; a readable form at a terminal otherwise. LOG_FORMAT
 * (json, logfmt or pretty) chooses either way.
 */
export const CliLoggingLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const production = yield* Config.string("NODE_ENV").pipe(Config.map((value) => value === "production"), Config.withDefault(false))
    const format = yield* Config.literal("json", "logfmt", "pretty")("LOG_FORMAT").pipe(
      Config.option,
      Config.map((chosen) => chosen._tag === "Some" ? chosen.value : production ? "json" : "pretty")
    )
    if (format === "pretty") return Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))
    const text = format === "json" ? Logger.jsonLogger : Logger.logfmtLogger
    return Logger.replace(Logger.defaultLogger, Logger.withConsoleError(text))
  })
)
