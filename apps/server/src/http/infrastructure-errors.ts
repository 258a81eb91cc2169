import { HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Option, Predicate } from "effect"
import { causes, classifySqlError, describeSqlError, sqlStateOf } from "@tks/db/sql-errors"
import { BadRequest, BadRequestCode, databaseTimeout, databaseUnavailable, type ServiceUnavailable } from "@tks/domain/errors"

// The one place where the HTTP transport turns database failures into
// answers, by their kind (@tks/db/sql-errors).

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

const unavailable = (error: SqlError) =>
  Effect.logWarning("database unavailable", describeSqlError(error)).pipe(Effect.zipRight(databaseUnavailable()))

const timedOut = (error: SqlError) =>
  Effect.logWarning("database statement timeout", describeSqlError(error)).pipe(Effect.zipRight(databaseTimeout()))

const conflict = (error: SqlError) => {
  const cause = causes(error)[0]
  const constraint = Predicate.hasProperty(cause, "constraint") && typeof cause.constraint === "string"
    ? cause.constraint
    : undefined
  return Effect.logWarning("unchecked constraint", describeSqlError(error)).pipe(
    Effect.zipRight(Effect.die(new DatabaseConflict({ sqlState: sqlStateOf(error), constraint })))
  )
}

const isSqlError = (error: unknown): error is SqlError => Predicate.isTagged(error, "SqlError")

/**
 * A SqlError can arrive as a defect, not a failure: a transaction whose
 * connection died cannot roll back, and @effect/sql turns the failed
 * ROLLBACK (or COMMIT) into a defect ("Client has encountered a connection
 * error and is not queryable"). Every write in a transaction lost its
 * connection that way and answered 500; the mapping below takes both.
 */
const catchSqlErrors = <A, E, R, E2>(
  effect: Effect.Effect<A, E, R>,
  answer: (error: SqlError) => Effect.Effect<never, E2>
): Effect.Effect<A, Exclude<E, SqlError> | E2, R> =>
  Effect.catchIf(effect, isSqlError, answer).pipe(
    Effect.catchSomeDefect((defect) => (isSqlError(defect) ? Option.some(answer(defect)) : Option.none()))
  ) as Effect.Effect<A, Exclude<E, SqlError> | E2, R>

const answerForHandlers = (error: SqlError): Effect.Effect<never, ServiceUnavailable | BadRequest> => {
  switch (classifySqlError(error)) {
    case "unavailable":
      return unavailable(error)
    case "timeout":
      return timedOut(error)
    case "data":
      return Effect.logInfo("database refused a value", describeSqlError(error)).pipe(
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
}

/**
 * For handlers: 503 when the database is away (SERVICE_UNAVAILABLE) or
 * timed a statement out (DATABASE_TIMEOUT), both with Retry-After (added to
 * every 503 by error-bodies.ts); 400 when it refused a value the caller
 * sent, 409 for an unchecked constraint, a logged 500 otherwise.
 */
export const withInfrastructureErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | ServiceUnavailable | BadRequest, R> =>
  catchSqlErrors(effect, answerForHandlers)

/**
 * For authentication, whose only declared errors are 401 and 503: the
 * database being away or too slow is 503; anything else is a defect (a
 * logged 500), since nothing the caller sends there can be a value the
 * database refuses.
 */
export const withDatabaseAvailability = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | ServiceUnavailable, R> =>
  catchSqlErrors(effect, (error): Effect.Effect<never, ServiceUnavailable> => {
    switch (classifySqlError(error)) {
      case "unavailable":
        return unavailable(error)
      case "timeout":
        return timedOut(error)
      case "constraint":
        return conflict(error)
      default:
        return Effect.die(error)
    }
  })
