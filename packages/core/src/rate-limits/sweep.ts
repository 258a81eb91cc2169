import { Duration, Effect, Layer } from "effect"
import { expirySweep, sweepingEvery } from "../common/expiry-sweep.js"
import { RateLimitRepo } from "./repo.js"

/** Deletes the counters whose windows have all ended, in one statement. */
export const sweepExpiredCounters = expirySweep(
  "RateLimits.sweep",
  "tks.rate_limit.counters_deleted",
  "rate-limit counters",
  Effect.flatMap(RateLimitRepo, (repo) => repo.deleteExpired)
)

/** Sweeps the ended counters every few minutes. */
export const RateLimitSweepLive = sweepingEvery(Duration.minutes(5), sweepExpiredCounters).pipe(Layer.provide(RateLimitRepo.Default))
