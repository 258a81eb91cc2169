import { Effect } from "effect"
import { type Access, CurrentAccess } from "@tks/domain/policy"
import { withToolInfrastructureErrors } from "../infrastructure-errors.js"

/**
 * A tool handler's whole body, as an HTTP handler's: run a service call
 * with the caller's access (ToolAuthorization already checked the tool's
 * declared policy), with infrastructure failures mapped the tools' way.
 */
export const asToolCaller = <A, Err, R>(call: (access: Access) => Effect.Effect<A, Err, R>) =>
  withToolInfrastructureErrors(Effect.flatMap(CurrentAccess, call))
