import { ValidationError } from "@effect/cli"
import { Cause, Console, Effect, Option } from "effect"

const messageOf = (error: unknown): string | undefined => {
  if (typeof error !== "object" || error === null || !("message" in error)) return undefined
  return typeof error.message === "string" && error.message !== "" ? error.message : undefined
}

/**
 * How a failed command reads on stderr: the error's own message (a fixture's
 * problems, "No live token with that id"), not a stack trace. @effect/cli has
 * already printed its usage errors. The exit code is 1 either way (runMain).
 */
export const reportFailure = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure)) return Cause.isInterruptedOnly(cause) ? Effect.void : Console.error(Cause.pretty(cause))
  const error = failure.value
  if (ValidationError.isValidationError(error)) return Effect.void
  const tag = typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : "Error"
  const message = messageOf(error)
  return Console.error(message === undefined ? Cause.pretty(cause) : tag === "FixtureInvalid" ? message : `${tag}: ${message}`)
}
