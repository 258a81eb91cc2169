import { type Duration, Effect, Layer } from "effect"
import { sweepSpan } from "./sweep-span.js"

/**
 * One sweep of rows past their time: `deleteExpired` (how many rows it
 * deleted), with a span named `name` only when it deleted some (`attribute`
 * holds how many), and a failure only logged: the next sweep tries again.
 */
export const expirySweep = <E, R>(
  name: string,
  attribute: string,
  what: string,
  deleteExpired: Effect.Effect<number, E, R>
): Effect.Effect<void, never, R> =>
  deleteExpired.pipe(
    sweepSpan(name, (deleted) => (deleted > 0 ? { [attribute]: deleted } : undefined)),
    Effect.asVoid,
    Effect.catchAll((error) => Effect.logWarning(`${what} not swept`, error))
  )

/**
 * A background fiber, ending with the service, that runs `sweep` every
 * `every`. Every process runs it; a sweep is one idempotent DELETE, so
 * several at once is harmless.
 */
export const sweepingEvery = <R>(every: Duration.Duration, sweep: Effect.Effect<void, never, R>): Layer.Layer<never, never, R> =>
  Layer.scopedDiscard(Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(every), sweep))))
