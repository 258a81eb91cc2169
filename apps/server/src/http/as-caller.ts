import { Effect } from "effect"
import { type Access, CurrentAccess } from "@tks/domain/policy"
import { withInfrastructureErrors } from "./infrastructure-errors.js"
import { withRefusalHeaders } from "./rate-limit.js"

/**
 * A handler's whole body: run a service call with the caller's access (the
 * endpoint's declared policy already passed in the authentication step),
 * with infrastructure failures mapped the HTTP way and a 429's headers set.
 */
export const asCaller = <A, Err, R>(call: (access: Access) => Effect.Effect<A, Err, R>) =>
  withRefusalHeaders(withInfrastructureErrors(Effect.flatMap(CurrentAccess, call)))
