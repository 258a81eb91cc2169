import { Config, Duration } from "effect"

const millis = (name: string, fallback: number, least: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be milliseconds, at least ${least}`, validation: (ms) => ms >= least })
  )

/**
 * How long narration may take, and when a reservation is presumed dead:
 *
 * - NARRATION_SPEECH_TIMEOUT_MS (45 s): speech not back by then (waiting for
 *   a local engine worker included) is a provider failure, given back;
 * - NARRATION_RESERVATION_TIMEOUT_MS (5 min): a reservation still open after
 *   this belongs to a request that died (its process crashed or was killed)
 *   and the reaper gives it back. It must exceed the speech timeout, so a
 *   live request is never reaped;
 * - NARRATION_REAPER_INTERVAL_MS (30 s): how often each process looks.
 */
export const NarrationSettings = Config.all({
  speechTimeout: millis("NARRATION_SPEECH_TIMEOUT_MS", 45_000, 100),
  reservationTimeout: millis("NARRATION_RESERVATION_TIMEOUT_MS", 300_000, 1_000),
  reaperInterval: millis("NARRATION_REAPER_INTERVAL_MS", 30_000, 100)
}).pipe(
  Config.validate({
    message: "NARRATION_RESERVATION_TIMEOUT_MS must be longer than NARRATION_SPEECH_TIMEOUT_MS",
    validation: (s) => s.reservationTimeout > s.speechTimeout
  }),
  Config.map((s) => ({
    speechTimeout: Duration.millis(s.speechTimeout),
    reservationTimeout: Duration.millis(s.reservationTimeout),
    reaperInterval: Duration.millis(s.reaperInterval)
  }))
)
export type NarrationSettings = Config.Config.Success<typeof NarrationSettings>
