import type { SqlError } from "@effect/sql/SqlError"
import { Clock, Data, Duration, Effect, Either, Redacted } from "effect"

/**
 * The database could not be reached when the service started. `message` is
 * one sentence naming the host and the reason, never the password, e.g.
 * "Cannot reach the database at db.example:5432 after 30 s: connection refused".
 */
export class DatabaseUnreachableError extends Data.TaggedError("DatabaseUnreachableError")<{
  readonly message: string
  /** host:port, or the socket path. */
  readonly address: string
  readonly cause: SqlError
}> {}

/** Where `url` points, as an operator would write it: host:port, or the Unix socket path. */
const databaseAddress = (url: Redacted.Redacted): string => {
  try {
    const parsed = new URL(Redacted.value(url))
    const port = parsed.searchParams.get("port") || parsed.port || "5432"
    const socketDir = parsed.searchParams.get("host")
    if (socketDir?.startsWith("/")) return `${socketDir}/.s.PGSQL.${port}`
    return `${socketDir || parsed.hostname || "localhost"}:${port}`
  } catch {
    return "the configured address"
  }
}

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null && name in value ? Reflect.get(value, name) : undefined

const SYSTEM_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name did not resolve",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOENT: "no socket there",
  EACCES: "permission denied"
}

/** SQLSTATE classes no retry can fix: wrong credentials, no such database. */
const isPermanent = (error: SqlError) => {
  const code = field(error.cause, "code")
  return typeof code === "string" && (code.startsWith("28") || code === "3D000")
}

/** Why the connection failed, in a few words (the server's own message for a server error). */
const reasonOf = (error: SqlError): string => {
  const cause = error.cause
  const code = field(cause, "code")
  if (typeof code === "string" && code in SYSTEM_REASONS) return SYSTEM_REASONS[code] ?? code
  const message = field(cause, "message")
  if (typeof message !== "string" || message === "") return error.message
  if (/timeout|timed out/i.test(message)) return "no answer (connection timed out)"
  return message.charAt(0).toLowerCase() + message.slice(1)
}

const formatSeconds = (duration: Duration.Duration) => {
  const seconds = Duration.toMillis(duration) / 1000
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`
}

/**
 * Runs `connect` (building the pool, which runs its first query) until it
 * succeeds, retrying with backoff (100 ms doubling, at most 2 s apart) for
 * `startTimeout`, the last attempt at the deadline: a database that starts
 * alongside the service (a container next to it) is waited for. Wrong
 * credentials or a missing database fail at once.
 */
export const retryFirstConnection = <A, R>(
  url: Redacted.Redacted,
  startTimeout: Duration.Duration,
  connect: Effect.Effect<A, SqlError, R>
): Effect.Effect<A, DatabaseUnreachableError, R> => {
  const address = databaseAddress(url)
  const unreachable = (error: SqlError) =>
    new DatabaseUnreachableError({
      address,
      cause: error,
      message: isPermanent(error)
        ? `Cannot connect to the database at ${address}: ${reasonOf(error)}`
        : `Cannot reach the database at ${address} after ${formatSeconds(startTimeout)}: ${reasonOf(error)}`
    })
  return Effect.gen(function*() {
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(startTimeout)
    let pause = 100
    for (let attempt = 1;; attempt++) {
      const result = yield* Effect.either(connect)
      if (Either.isRight(result)) return result.right
      const error = result.left
      const remaining = deadline - (yield* Clock.currentTimeMillis)
      if (isPermanent(error) || remaining <= 0) return yield* unreachable(error)
      // One warning while waiting, not one per attempt.
      if (attempt === 1) yield* Effect.logWarning(`Waiting for the database at ${address}: ${reasonOf(error)}`)
      yield* Effect.sleep(Math.min(pause, remaining))
      pause = Math.min(pause * 2, 2_000)
    }
  })
}
