import { Deferred, Effect, Ref } from "effect"

/**
 * An in-process nudge from `JobsRepo.enqueue` to this process's idle
 * workers, so a job enqueued here starts without waiting for the next poll.
 * LISTEN/NOTIFY would reach other processes too, but it does not cross
 * pglite-socket (and sql-pg 0.53's `notify` is broken); other processes find the job by polling.
 *
 * `signal` is a Deferred that completes at the next `wake`: a worker takes it
 * before it looks for work, so a wake that lands while it looks is not lost.
 */
export class JobWake extends Effect.Service<JobWake>()("@tks/core/JobWake", {
  effect: Effect.gen(function*() {
    const current = yield* Ref.make(yield* Deferred.make<void>())

    const wake = Deferred.make<void>().pipe(
      Effect.flatMap((next) => Ref.getAndSet(current, next)),
      Effect.flatMap((previous) => Deferred.succeed(previous, undefined)),
      Effect.asVoid
    )

    return { wake, signal: Ref.get(current) } as const
  })
}) {}
