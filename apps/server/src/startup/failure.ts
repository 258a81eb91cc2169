import { Cause, ConfigError, Console, Effect, LogLevel, Option, Predicate } from "effect"
import { LogLevelConfig } from "../observability/logging.js"
import { describeListenError, field } from "./port.js"

const oneLine = (text: string) =>
  text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "").join("; ")

/** Which variable, what it accepts, what it got: our settings say it all; Effect's own messages get the name. */
const describeConfigError = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
      return `${describeConfigError(error.left)}; ${describeConfigError(error.right)}`
    case "Or":
      return `${describeConfigError(error.left)} (or ${describeConfigError(error.right)})`
    default: {
      const name = error.path.join("_")
      return name === "" || error.message.includes(name) ? error.message : `${name}: ${error.message}`
    }
  }
}

const ownMessage = (error: unknown): string | undefined => {
  const message = field(error, "message")
  if (typeof message === "string" && message.trim() !== "") return message
  // Node reports a refused `localhost` (both ::1 and 127.0.0.1) as an AggregateError with no message.
  const errors = field(error, "errors")
  if (Array.isArray(errors) && errors.length > 0) {
    return [...new Set(errors.map((inner) => ownMessage(inner) ?? String(inner)))].join(", ")
  }
  return undefined
}

/** Errors whose message is already the whole sentence for an operator (the address and the reason): their causes would only repeat it. */
const selfContained: ReadonlySet<string> = new Set(["DatabaseUnreachableError"])

/** The error's own message, followed by its causes' while they add something ("Failed to connect: connect ECONNREFUSED …"). */
const describeError = (error: unknown): string => {
  if (ConfigError.isConfigError(error)) return describeConfigError(error)
  const parts: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const listen = describeListenError(current)
    if (listen !== undefined) {
      if (!parts.some((part) => part.includes(listen))) parts.push(listen)
      break
    }
    const message = ownMessage(current)
    if (message !== undefined && !parts.some((part) => part.includes(message))) parts.push(message)
    if (Predicate.hasProperty(current, "_tag") && selfContained.has(String(current._tag))) break
    current = field(current, "cause")
  }
  if (parts.length > 0) return oneLine(parts.join(": "))
  return Predicate.hasProperty(error, "_tag") ? String(error._tag) : oneLine(String(error))
}

/** The one line a failed start prints on stderr; none when the process was only interrupted (SIGINT/SIGTERM). */
export const failureLine = (cause: Cause.Cause<unknown>): Option.Option<string> => {
  if (Cause.isInterruptedOnly(cause)) return Option.none()
  const reason = Option.match(Cause.failureOption(cause), {
    onSome: describeError,
    onNone: () => Option.match(Cause.dieOption(cause), { onSome: describeError, onNone: () => oneLine(Cause.pretty(cause)) })
  })
  return Option.some(`Cannot start the service: ${reason}`)
}

/**
 * Prints the one line (no stack trace, no cause dump); with LOG_LEVEL at
 * Debug or below the full cause follows, for whoever is debugging.
 */
export const reportStartupFailure = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const line = failureLine(cause)
    if (Option.isNone(line)) return
    yield* Console.error(line.value)
    const level = yield* Effect.option(LogLevelConfig)
    if (Option.isSome(level) && LogLevel.lessThanEqual(level.value, LogLevel.Debug)) yield* Console.error(Cause.pretty(cause))
  })
