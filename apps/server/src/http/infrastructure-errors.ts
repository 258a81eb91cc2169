import { HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Predicate } from "effect"
import { BadRequest, BadRequestCode, ServiceUnavailable } from "@tks/domain/errors"

/**
 * The one place where the HTTP transport turns database failures into
 * answers, by what the failure says (DESIGN pitfall 18). Only the database
 * being away is a 503 the caller may retry: mapping every SqlError to 503
 * turned a NUL byte in a query into a fake outage.
 *
 * - unavailable: SQLSTATE class 08 (connection), 57P (shutdown), 57014
 *   (statement timeout), 53 (out of connections or resources), and
 *   connection failures without a SQLSTATE (refused, reset, timed out,
 *   terminated, the pool could not hand out a connection) -> 503;
 * - data: class 22 (a value the database refused) -> the caller's 400;
 * - constraint: class 23 (a rule the service did not check first) -> 409;
 * - other: anything else is our bug -> a logged 500.
 */
export type SqlErrorKind = "unavailable" | "data" | "constraint" | "other"

// A SQLSTATE: five characters whose class is two digits or F0, HV, P0, XX.
// Node's system error codes (EPIPE, ...) never start that way.
const SQLSTATE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/

const SYSTEM_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN"
])

// pg, pg-pool and our socket watchdog (@tks/db) say these without a code.
const CONNECTION_MESSAGE =
  /connection terminated|not queryable|query read timeout|timeout exceeded when trying to connect|after calling end on the pool|no answer from the database/i

// What sql-pg itself says when it could not get or keep a connection.
const ACQUIRE_MESSAGE = /^(?:Failed to acquire connection|Connection error)/

/** The errors on the cause chain, nearest first (pg puts the SQLSTATE on `DatabaseError.code`). */
const causes = (error: SqlError): ReadonlyArray<unknown> => {
  const chain: Array<unknown> = []
  let current: unknown = error.cause
  while (current !== undefined && current !== null && chain.length < 5) {
    chain.push(current)
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return chain
}

const codeOf = (value: unknown): string | undefined =>
  Predicate.hasProperty(value, "code") && typeof value.code === "string" ? value.code : undefined

const messageOf = (value: unknown): string =>
  Predicate.hasProperty(value, "message") && typeof value.message === "string" ? value.message : ""

/** The SQLSTATE the database answered with, if it answered at all. */
export const sqlStateOf = (error: SqlError): string | undefined => {
  for (const cause of causes(error)) {
    const code = codeOf(cause)
    if (code !== undefined && SQLSTATE.test(code)) return code
  }
  return undefined
}

export const classifySqlError = (error: SqlError): SqlErrorKind => {
  const state = sqlStateOf(error)
  if (ACQUIRE_MESSAGE.test(error.message)) return "unavailable"
  if (state !== undefined) {
    if (state.startsWith("08") || state.startsWith("57P") || state === "57014" || state.startsWith("53")) {
      return "unavailable"
    }
    if (state.startsWith("22")) return "data"
    if (state.startsWith("23")) return "constraint"
    return "other"
  }
  for (const cause of causes(error)) {
    const code = codeOf(cause)
    if (code !== undefined && SYSTEM_CONNECTION_CODES.has(code)) return "unavailable"
    if (CONNECTION_MESSAGE.test(messageOf(cause))) return "unavailable"
  }
  return "other"
}

/**
 * A constraint the service did not check before writing: 409 with the JSON
 * body. A defect, not a declared error: a service that can hit a constraint
 * should check it and answer its own error; this is the safety net, and it
 * is Respondable so the framework answers it the same way.
 */
export class DatabaseConflict extends Data.TaggedError("DatabaseConflict")<{
  readonly sqlState: string | undefined
  readonly constraint: string | undefined
}> implements HttpServerRespondable.Respondable {
  [HttpServerRespondable.symbol]() {
    return HttpServerResponse.json(
      { _tag: "Conflict", code: "CONFLICT", message: "The request conflicts with the current state of the data" },
      { status: 409 }
    ).pipe(Effect.orDie)
  }
}

const describe = (error: SqlError) => {
  const state = sqlStateOf(error)
  const detail = causes(error).map(messageOf).find((message) => message !== "") ?? ""
  return state === undefined ? `${error.message}: ${detail}` : `${error.message}: [${state}] ${detail}`
}

const unavailable = (error: SqlError) =>
  Effect.logWarning("database unavailable", describe(error)).pipe(
    Effect.zipRight(new ServiceUnavailable({ message: "The database is unavailable; retry shortly" }))
  )

const conflict = (error: SqlError) => {
  const cause = causes(error)[0]
  const constraint = Predicate.hasProperty(cause, "constraint") && typeof cause.constraint === "string"
    ? cause.constraint
    : undefined
  return Effect.logWarning("unchecked constraint", describe(error)).pipe(
    Effect.zipRight(Effect.die(new DatabaseConflict({ sqlState: sqlStateOf(error), constraint })))
  )
}

const isSqlError = <E>(error: E): error is Extract<E, SqlError> => Predicate.isTagged(error, "SqlError")

/**
 * For handlers: 503 when the database is away, 400 when it refused a value
 * the caller sent, 409 for an unchecked constraint, a logged 500 otherwise.
 */
export const withInfrastructureErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, Extract<E, SqlError>> | ServiceUnavailable | BadRequest, R> =>
  Effect.catchIf(effect, isSqlError, (error): Effect.Effect<never, ServiceUnavailable | BadRequest> => {
    switch (classifySqlError(error)) {
      case "unavailable":
        return unavailable(error)
      case "data":
        return Effect.logInfo("database refused a value", describe(error)).pipe(
          Effect.zipRight(
            new BadRequest({
              code: BadRequestCode.validation,
              message: "A value in the request is not valid for its field"
            })
          )
        )
      case "constraint":
        return conflict(error)
      case "other":
        return Effect.die(error)
    }
  })

/**
 * For authentication, whose only declared errors are 401 and 503: the
 * database being away is 503; anything else is a defect (a logged 500),
 * since nothing the caller sends there can be a value the database refuses.
 */
export const withDatabaseAvailability = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, Extract<E, SqlError>> | ServiceUnavailable, R> =>
  Effect.catchIf(effect, isSqlError, (error): Effect.Effect<never, ServiceUnavailable> =>
    classifySqlError(error) === "unavailable"
      ? unavailable(error)
      : classifySqlError(error) === "constraint"
      ? conflict(error)
      : Effect.die(error))
