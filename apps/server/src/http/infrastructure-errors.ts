import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Predicate } from "effect"
import { ServiceUnavailable } from "@tks/domain/errors"

/**
 * The one place where the HTTP transport turns infrastructure failures into
 * answers: the database being away is a 503 the caller may retry, never a 500.
 */
export const withInfrastructureErrors = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is Extract<E, SqlError> => Predicate.isTagged(error, "SqlError"),
    (error) =>
      Effect.logWarning("database unavailable", error.message).pipe(
        Effect.zipRight(new ServiceUnavailable({ message: "The database is unavailable; retry shortly" }))
      )
  )
