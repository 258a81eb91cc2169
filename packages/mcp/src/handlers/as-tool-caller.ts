import { Effect } from "effect"
import { type Access, CurrentAccess } from "@tks/domain/policy"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"

/**
 * A tool handler's whole body, as an HTTP handler's: run a service call
 * with the caller's access (ToolAuthorization already checked the tool's
 * declared policy), with database failures mapped as every transport maps them.
 */
export const asToolCaller = <A, Err, R>(call: (access: Access) => Effect.Effect<A, Err, R>) =>
  withSqlErrorAnswers(Effect.flatMap(CurrentAccess, call))
