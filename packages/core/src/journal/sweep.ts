import { Duration, Effect, Layer } from "effect"
import { sweepEvery, sweepSpan } from "../common/sweep-span.js"
import { JournalReadsRepo } from "./reads-repo.js"

const SWEEP_EVERY = Duration.hours(1)

/** Deletes the events past the feed's retention, in one statement. */
export const sweepExpiredEvents = JournalReadsRepo.pipe(
  Effect.flatMap((repo) => repo.deleteExpiredEvents),
  sweepSpan("Journal.sweep", (deleted) => (deleted > 0 ? { "tks.events.deleted": deleted } : undefined)),
  Effect.asVoid,
  Effect.catchAll((error) => Effect.logWarning("expired events not swept", error))
)

/**
 * A background fiber, ending with the service, that forgets events older
 * than the feed keeps them, every hour. Every process runs it; the DELETE is
 * idempotent. The audit log is kept: it is the organization's record.
 */
export const EventSweepLive = sweepEvery(SWEEP_EVERY, sweepExpiredEvents).pipe(Layer.provide(JournalReadsRepo.Default))
