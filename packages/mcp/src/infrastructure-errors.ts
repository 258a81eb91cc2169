import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Predicate } from "effect"
import { classifySqlError, describeSqlError } from "@tks/db/sql-errors"
import { BadRequest, BadRequestCode, databaseTimeout, databaseUnavailable, type ServiceUnavailable } from "@tks/domain/errors"

const isSqlError = <E>(error: E): error is Extract<E, SqlError> => Predicate.isTagged(error, "SqlError")

/**
 * The one place where the tool transports (MCP and /rpc) turn database
 * failures into tool errors, by their kind (@tks/db/sql-errors), as the
 * HTTP handlers do: the database away is ServiceUnavailable
 * SERVICE_UNAVAILABLE, a statement timeout ServiceUnavailable
 * DATABASE_TIMEOUT (both: retry), a value it refused is the caller's
 * BadRequest; anything else (a cancel on user request included) is our bug,
 * a logged defect. Tools only read, so no constraint can be hit.
 */
export const withToolInfrastructureErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, Extract<E, SqlError>> | ServiceUnavailable | BadRequest, R> =>
  Effect.catchIf(effect, isSqlError, (error): Effect.Effect<never, ServiceUnavailable | BadRequest> => {
    switch (classifySqlError(error)) {
      case "unavailable":
        return Effect.logWarning("database unavailable", describeSqlError(error)).pipe(
          Effect.zipRight(databaseUnavailable())
        )
      case "timeout":
        return Effect.logWarning("database statement timeout", describeSqlError(error)).pipe(Effect.zipRight(databaseTimeout()))
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
