import { Effect } from "effect"
import { type Actor, CurrentActor } from "@tks/domain/actor"
import { withInfrastructureErrors } from "./infrastructure-errors.js"

/**
 * A handler's whole body: run a service call as the authenticated caller,
 * with infrastructure failures mapped the HTTP way.
 */
export const asCaller = <A, Err, R>(call: (actor: Actor) => Effect.Effect<A, Err, R>) =>
  withInfrastructureErrors(Effect.flatMap(CurrentActor, call))
