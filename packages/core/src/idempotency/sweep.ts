import { Duration, Effect, Layer } from "effect"
import { expirySweep, sweepingEvery } from "../common/expiry-sweep.js"
import { IdempotencyRepo } from "./repo.js"

/** Deletes the kept answers past their retention, in one statement. */
export const sweepExpiredKeys = expirySweep(
  "Idempotency.sweep",
  "tks.idempotency.keys_deleted",
  "idempotency keys",
  Effect.flatMap(IdempotencyRepo, (repo) => repo.deleteExpired)
)

/** Deletes the answers kept past their day (already ignored) every few minutes. */
export const IdempotencySweepLive = sweepingEvery(Duration.minutes(5), sweepExpiredKeys).pipe(Layer.provide(IdempotencyRepo.Default))
