import { Duration, Effect, Layer, Schedule } from "effect"
import { sweepSpan } from "../common/sweep-span.js"
import { NarrationRepo } from "./repo.js"
import { NarrationSettings } from "./settings.js"

/**
 * Gives back the reservations of narrations whose request died: open longer
 * than NARRATION_RESERVATION_TIMEOUT_MS, which a live request never is (its
 * speech times out first). Idempotent and safe with several processes
 * reaping at once.
 */
export const reapDeadReservations = (reservationTimeout: Duration.Duration) =>
  NarrationRepo.pipe(
    Effect.flatMap((repo) => repo.reapExpired(Duration.toMillis(reservationTimeout))),
    Effect.tap(({ reaped, characters }) =>
      reaped > 0
        ? Effect.logWarning(`gave back ${characters} characters of ${reaped} narration reservation(s) whose request died`)
        : Effect.void
    )
  )

/** A background fiber, ending with the service, reaping every NARRATION_REAPER_INTERVAL_MS in every process. */
export const NarrationReaperLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const settings = yield* NarrationSettings
    const reapQuietly = reapDeadReservations(settings.reservationTimeout).pipe(
      sweepSpan("NarrationReaper.reap", ({ characters, reaped }) =>
        reaped > 0 ? { "tks.narration.reaped": reaped, "tks.narration.characters": characters } : undefined),
      Effect.catchAll((error) => Effect.logWarning("narration reservations not reaped; retrying", error))
    )
    yield* Effect.forkScoped(Effect.repeat(reapQuietly, Schedule.spaced(settings.reaperInterval)))
  })
).pipe(Layer.provide(NarrationRepo.Default))
