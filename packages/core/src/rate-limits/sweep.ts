import { Duration, Effect, Layer } from "effect"
import { sweepEvery, sweepSpan } from "../common/sweep-span.js"
import { RateLimitRepo } from "./repo.js"

const SWEEP_EVERY = Duration.minutes(5)

/** Deletes the counters whose windows have all ended, in one statement. */
export const sweepExpiredCounters = RateLimitRepo.pipe(
  Effect.flatMap((repo) => repo.deleteExpired),
  sweepSpan("RateLimits.sweep", (deleted) => (deleted > 0 ? { "tks.rate_limit.counters_deleted": deleted } : undefined)),
  Effect.asVoid,
  Effect.catchAll((error) => Effect.logWarning("rate-limit counters not swept", error))
)

/**
 * A background fiber, ending with the service, that sweeps the ended
 * counters every few minutes. Every process runs it; the DELETE is
 * idempotent, so several sweeping at once is harmless.
 */
export const RateLimitSweepLive = sweepEvery(SWEEP_EVERY, sweepExpiredCounters).pipe(Layer.provide(RateLimitRepo.Default))
