import { Effect } from "effect"
import { type Access, CurrentAccess } from "@tks/domain/policy"
import { withInfrastructureErrors } from "./infrastructure-errors.js"

/**
 * A handler's whole body: run a service call with the caller's access (the
 * endpoint's declared policy already passed in the authentication step),
 * with infrastructure failures mapped the HTTP way.
 */
export const asCaller = <A, Err, R>(call: (access: Access) => Effect.Effect<A, Err, R>) =>
  withInfrastructureErrors(Effect.flatMap(CurrentAccess, call))
