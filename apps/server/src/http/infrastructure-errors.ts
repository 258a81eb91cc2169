import { HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect, Predicate } from "effect"
import { causes, classifySqlError, describeSqlError, sqlStateOf } from "@tks/db/sql-errors"
import { BadRequest, BadRequestCode, ServiceUnavailable } from "@tks/domain/errors"

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
  Effect.logWarning("database unavailable", describeSqlError(error)).pipe(
    Effect.zipRight(new ServiceUnavailable({ message: "The database is unavailable; retry shortly" }))
  )

const conflict = (error: SqlError) => {
  const cause = causes(error)[0]
  const constraint = Predicate.hasProperty(cause, "constraint") && typeof cause.constraint === "string"
    ? cause.constraint
    : undefined
  return Effect.logWarning("unchecked constraint", describeSqlError(error)).pipe(
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
