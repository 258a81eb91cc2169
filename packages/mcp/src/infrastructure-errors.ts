import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Predicate } from "effect"
import { classifySqlError, describeSqlError } from "@tks/db/sql-errors"
import { BadRequest, BadRequestCode, ServiceUnavailable } from "@tks/domain/errors"

const isSqlError = <E>(error: E): error is Extract<E, SqlError> => Predicate.isTagged(error, "SqlError")

/**
 * The one place where the tool transports (MCP and /rpc) turn database
 * failures into tool errors, by their kind (@tks/db/sql-errors): the
 * database away is ServiceUnavailable (retry), a value it refused is the
 * caller's BadRequest; anything else is our bug, a logged defect. Tools only
 * read, so no constraint can be hit.
 */
export const withToolInfrastructureErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, Extract<E, SqlError>> | ServiceUnavailable | BadRequest, R> =>
  Effect.catchIf(effect, isSqlError, (error): Effect.Effect<never, ServiceUnavailable | BadRequest> => {
    switch (classifySqlError(error)) {
      case "unavailable":
        return Effect.logWarning("database unavailable", describeSqlError(error)).pipe(
          Effect.zipRight(new ServiceUnavailable({ message: "The database is unavailable; retry shortly" }))
        )
      case "data":
        return Effect.logInfo("database refused a value", describeSqlError(error)).pipe(
          Effect.zipRight(
            new BadRequest({ code: BadRequestCode.validation, message: "A value in the request is not valid for its field" })
          )
        )
      default:
        return Effect.die(error)
    }
  })
