import { Duration, Effect, Layer } from "effect"
import { expirySweep, sweepingEvery } from "../common/expiry-sweep.js"
import { JournalReadsRepo } from "./reads-repo.js"

/** Deletes the events past the feed's retention, in one statement. */
export const sweepExpiredEvents = expirySweep(
  "Journal.sweep",
  "tks.events.deleted",
  "expired events",
  Effect.flatMap(JournalReadsRepo, (repo) => repo.deleteExpiredEvents)
)

/** Forgets events older than the feed keeps them, every hour. The audit log is kept: it is the organization's record. */
export const EventSweepLive = sweepingEvery(Duration.hours(1), sweepExpiredEvents).pipe(Layer.provide(JournalReadsRepo.Default))
