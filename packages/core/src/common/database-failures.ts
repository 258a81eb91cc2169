import { HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Option, Predicate } from "effect"
import { causes, classifySqlError, describeSqlError, sqlStateOf } from "@tks/db/sql-errors"
import { BadRequest, BadRequestCode, databaseTimeout, databaseUnavailable, type ServiceUnavailable } from "@tks/domain/errors"
import { JobFailure } from "../jobs/handler.js"

// The one place where a database failure becomes the service's answer, by
// its kind (@tks/db/sql-errors); HTTP, the tool transports (MCP and /rpc)
// and the job handlers all map through here.

/**
 * A constraint the service did not check before writing: a defect, not a
 * declared error (a service that can hit a constraint should check it and
 * answer its own error; this is the safety net). It is Respondable so the
 * HTTP framework answers it 409 with the JSON body.
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

const conflict = (error: SqlError) => {
  const cause = causes(error)[0]
  const constraint = Predicate.hasProperty(cause, "constraint") && typeof cause.constraint === "string"
    ? cause.constraint
    : undefined
  return Effect.logWarning("unchecked constraint", describeSqlError(error)).pipe(
    Effect.zipRight(Effect.die(new DatabaseConflict({ sqlState: sqlStateOf(error), constraint })))
  )
}

/**
 * A database failure as the caller's answer: the database away is
 * ServiceUnavailable SERVICE_UNAVAILABLE, a statement timeout
 * ServiceUnavailable DATABASE_TIMEOUT (both: retry); a value it refused is
 * the caller's BadRequest; an unchecked constraint the DatabaseConflict
 * defect; anything else (a cancel on user request included) is our bug, a
 * defect.
 */
const answerSqlError = (error: SqlError): Effect.Effect<never, ServiceUnavailable | BadRequest> => {
  switch (classifySqlError(error)) {
    case "unavailable":
      return Effect.logWarning("database unavailable", describeSqlError(error)).pipe(Effect.zipRight(databaseUnavailable()))
    case "timeout":
      return Effect.logWarning("database statement timeout", describeSqlError(error)).pipe(Effect.zipRight(databaseTimeout()))
    case "data":
      return Effect.logInfo("database refused a value", describeSqlError(error)).pipe(
        Effect.zipRight(
          new BadRequest({ code: BadRequestCode.validation, message: "A value in the request is not valid for its field" })
        )
      )
    case "constraint":
      return conflict(error)
    case "other":
      return Effect.die(error)
  }
}

const isSqlError = (error: unknown): error is SqlError => Predicate.isTagged(error, "SqlError")

/**
 * A SqlError can arrive as a defect, not a failure: a transaction whose
 * connection died cannot roll back, and @effect/sql turns the failed
 * ROLLBACK (or COMMIT) into a defect ("Client has encountered a connection
 * error and is not queryable"). Every write in a transaction that lost its
 * connection that way answered 500; this takes both.
 */
const catchSqlErrors = <A, E, R, E2>(
  effect: Effect.Effect<A, E, R>,
  answer: (error: SqlError) => Effect.Effect<never, E2>
): Effect.Effect<A, Exclude<E, SqlError> | E2, R> =>
  Effect.catchIf(effect, isSqlError, answer).pipe(
    Effect.catchSomeDefect((defect) => (isSqlError(defect) ? Option.some(answer(defect)) : Option.none()))
  ) as Effect.Effect<A, Exclude<E, SqlError> | E2, R>

/** Every SqlError of `effect`, failure or defect, answered by `answerSqlError`. */
export const withSqlErrorAnswers = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | ServiceUnavailable | BadRequest, R> => catchSqlErrors(effect, answerSqlError)

/**
 * As `withSqlErrorAnswers`, where the only declared database answer is 503
 * (authentication: nothing the caller sends there is a value the database
 * could refuse, so a refused value is our bug, a defect).
 */
export const withDatabaseAvailability = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | ServiceUnavailable, R> =>
  catchSqlErrors(effect, (error) => Effect.catchTag(answerSqlError(error), "BadRequest", () => Effect.die(error)))

/**
 * For job handlers: any database failure fails the attempt with its message
 * as the reason, and the workers retry it (the database away or too slow is
 * why most do; the reason ends up on the job's subject if it fails for good).
 */
export const failJobOnSqlError = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError> | JobFailure, R> =>
  Effect.catchIf(effect, isSqlError, (error) =>
    Effect.fail(new JobFailure({ reason: `Database error: ${error.message}` }))) as Effect.Effect<
      A,
      Exclude<E, SqlError> | JobFailure,
      R
    >
