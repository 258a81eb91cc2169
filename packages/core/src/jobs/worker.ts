import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Clock, Data, Deferred, Duration, Effect, Exit, FiberRef, Layer, Option } from "effect"
import { RequestOrigin, type RequestOriginValue } from "@tks/domain/request-origin"
import { countJobRun } from "../operations/counters.js"
import { defectReason, type JobHandler, retryDelayMs } from "./handler.js"
import { type ClaimedJob, type FailOutcome, JobsRepo } from "./repo.js"
import { linksTo } from "./trace-context.js"
import { JobWake } from "./wake.js"

export interface WorkerSettings {
  /** Names this process in `lease_owner` (each fiber adds `/<n>`); unique among the processes sharing the database. */
  readonly owner: string
  /** Jobs run at once in this process. */
  readonly concurrency: number
  /** How often an idle worker looks for due jobs (others' enqueues, retries, lapsed leases). */
  readonly pollMs: number
  /** How long a claim holds without renewal; a crashed worker's job is taken over after this. */
  readonly leaseMs: number
  /** The first retry's wait; each further one doubles (a kind with a schedule of its own, webhooks, scales it from this). */
  readonly retryBaseMs: number
}

class LeaseLost extends Data.TaggedError("LeaseLost") {}

/** A failed attempt, as its span records it (status ERROR, the reason as message). */
class AttemptFailed extends Data.TaggedError("AttemptFailed")<{ readonly message: string }> {}

/**
 * How a run ended, for its span: completed, failed (then retrying, failed
 * for good, or "lost": the lease had been taken over), stopped when its
 * lease was lost, or not recorded (the database refused the outcome).
 */
type RunOutcome =
  | { readonly outcome: "completed" | "stopped" | "unrecorded" }
  | { readonly outcome: FailOutcome; readonly reason: string }

/** Where a job's acts come from, for their audit rows: the workers, with no request behind them. */
const workerOrigin: RequestOriginValue = { transport: "worker", requestId: null, clientIp: null, userAgent: null }

// After a wake, look again at these delays: an enqueue inside a transaction
// wakes the workers before it commits, so the first look may not see the job.
const AFTER_WAKE_MS = [25, 100, 300] as const

/**
 * `settings.concurrency` fibers, each claiming one job at a time of the kinds
 * `handlers` know, for the scope. While a job runs a heartbeat renews its
 * lease; if the lease is lost (taken over after a stall) the run stops and
 * writes nothing more. Closing the scope interrupts running jobs and gives
 * their leases back, so another process takes them at once.
 */
export const runJobWorkers = <R>(settings: WorkerSettings, handlers: ReadonlyArray<JobHandler<R>>) =>
  Effect.gen(function*() {
    const repo = yield* JobsRepo
    const wake = yield* JobWake
    const sql = yield* SqlClient.SqlClient
    const byKind = new Map(handlers.map((handler) => [handler.kind, handler]))
    const kinds = [...byKind.keys()]
    // Read once: the loops run untraced (an idle poll every second would be a span flood), each job run traced when this is.
    const tracing = yield* FiberRef.get(FiberRef.currentTracerEnabled)
    // What a shutdown finds running, and what it gives back: its log lines say so.
    let running = 0
    let handedBack = 0

    const heartbeat = (job: ClaimedJob, owner: string) =>
      Effect.sleep(Duration.millis(Math.max(50, Math.floor(settings.leaseMs / 3)))).pipe(
        Effect.zipRight(repo.renew(job, owner, settings.leaseMs)),
        Effect.catchAll((error) => Effect.as(Effect.logWarning("lease not renewed", error), true)),
        Effect.flatMap((renewed) => (renewed ? Effect.void : Effect.fail(new LeaseLost()))),
        Effect.forever
      )

    const finish = (handler: JobHandler<R>, job: ClaimedJob, owner: string, reason: string): Effect.Effect<RunOutcome, SqlError, R> =>
      Effect.gen(function*() {
        const retryInMs = handler.retryInMs?.(job.attempt) ?? retryDelayMs(job.attempt, settings.retryBaseMs)
        const outcome = yield* sql.withTransaction(
          repo.fail(job, owner, reason, retryInMs).pipe(
            Effect.tap((outcome) => (outcome === "failed" ? handler.onFailed(job, reason) : Effect.void))
          )
        )
        if (outcome === "retrying") yield* Effect.logWarning("job failed; will retry").pipe(Effect.annotateLogs({ reason, retryInMs }))
        if (outcome === "failed") yield* Effect.logError("job failed for good").pipe(Effect.annotateLogs({ reason }))
        if (outcome === "lost") yield* Effect.logWarning("job failed after its lease was taken over; outcome left to the new holder")
        return { outcome, reason } satisfies RunOutcome
      })

    /**
     * The run's span, a root (the run is not part of the request that queued
     * it, which may have answered long ago) linked to the span that queued
     * the job. A failed attempt fails it; its SQL and the handler's spans are
     * its children.
     */
    const inSpan = (job: ClaimedJob, run: Effect.Effect<RunOutcome, never, R>) =>
      run.pipe(
        Effect.tap((ended) => Effect.annotateCurrentSpan("tks.job.outcome", ended.outcome)),
        Effect.flatMap((ended) => ("reason" in ended ? Effect.fail(new AttemptFailed({ message: ended.reason })) : Effect.void)),
        Effect.withSpan(`job ${job.kind}`, {
          kind: "consumer",
          root: true,
          links: linksTo(job.traceparent),
          captureStackTrace: false,
          attributes: {
            "tks.job.kind": job.kind,
            "tks.job.id": job.id,
            "tks.job.subject_id": job.subjectId,
            "tks.job.attempt": job.attempt,
            "tks.job.max_attempts": job.maxAttempts,
            "tks.organization_id": job.orgId
          }
        }),
        Effect.catchTag("AttemptFailed", () => Effect.void),
        Effect.withTracerEnabled(true)
      )

    const runOne = (job: ClaimedJob, owner: string): Effect.Effect<void, never, R> => {
      const handler = byKind.get(job.kind)
      if (handler === undefined) return Effect.void // not claimable: claims ask only for known kinds
      const run = Effect.gen(function*() {
        const started = yield* Clock.currentTimeMillis
        const elapsed = Effect.map(Clock.currentTimeMillis, (now) => ({ ms: now - started }))
        if (job.attempt > job.maxAttempts) {
          // Every earlier holder stopped without a word (killed, stalled): stop trying.
          return yield* finish(handler, job, owner, `Gave up after ${job.maxAttempts} attempts: the worker running it stopped each time`)
        }
        yield* Effect.logInfo("job started")
        const exit = yield* Effect.exit(Effect.raceFirst(handler.run(job), heartbeat(job, owner)))
        if (Exit.isSuccess(exit)) {
          const onCompleted = exit.value
          const completed = yield* Effect.isEffect(onCompleted)
            ? sql.withTransaction(Effect.tap(repo.complete(job, owner), (done) => (done ? onCompleted : Effect.void)))
            : repo.complete(job, owner)
          yield* completed
            ? Effect.logInfo("job completed").pipe(Effect.annotateLogs(yield* elapsed))
            : Effect.logWarning("job finished after its lease was taken over; outcome left to the new holder")
          return { outcome: completed ? "completed" : "stopped" } satisfies RunOutcome
        }
        const failure = Cause.failureOption(exit.cause)
        if (Option.isSome(failure) && failure.value._tag === "LeaseLost") {
          yield* Effect.logWarning("lease lost to another worker; stopped").pipe(Effect.annotateLogs(yield* elapsed))
          return { outcome: "stopped" } satisfies RunOutcome
        }
        const reason = Option.isSome(failure) && failure.value._tag === "JobFailure" ? failure.value.reason : defectReason(exit.cause)
        return yield* finish(handler, job, owner, reason).pipe(Effect.annotateLogs(yield* elapsed))
      }).pipe(
        Effect.catchAll((error) =>
          Effect.as(Effect.logError("job outcome not recorded; the lease will lapse", error), { outcome: "unrecorded" } as const)
        ),
        // Stopped for a lost lease counts as lost: the new holder decides the outcome.
        Effect.tap((ended) => countJobRun(job.kind, ended.outcome === "stopped" ? "lost" : ended.outcome)),
        Effect.annotateLogs({ jobId: job.id, kind: job.kind, attempt: job.attempt, owner, ...handler.annotations(job) }),
        Effect.provideService(RequestOrigin, workerOrigin)
      )
      return tracing ? inSpan(job, run) : Effect.asVoid(run)
    }

    const claimNext = (owner: string) =>
      repo.claim({ owner, kinds, leaseMs: settings.leaseMs }).pipe(
        Effect.catchAll((error) => Effect.as(Effect.logWarning("could not look for jobs", error), Option.none<ClaimedJob>()))
      )

    const loop = (owner: string) =>
      Effect.gen(function*() {
        let eager: ReadonlyArray<number> = []
        while (true) {
          const signal = yield* wake.signal
          // A claim is never left half-done by shutdown: the job is either not claimed, or claimed with its
          // give-back on interrupt already in place (interrupted between the two, it stayed RUNNING until
          // its lease lapsed, with the attempt counted).
          const ran = yield* Effect.uninterruptibleMask((restore) =>
            Effect.flatMap(claimNext(owner), (job) =>
              Option.isNone(job) ? Effect.succeed(false) : Effect.suspend(() => {
                running++
                return restore(runOne(job.value, owner)).pipe(
                  Effect.onInterrupt(() =>
                    repo.release(job.value, owner).pipe(
                      Effect.tap(() => Effect.sync(() => handedBack++)),
                      Effect.ignore
                    )
                  ),
                  Effect.ensuring(Effect.sync(() => running--)),
                  Effect.as(true)
                )
              }))
          )
          if (ran) continue
          const [next, ...rest] = eager
          if (next !== undefined) {
            eager = rest
            yield* Effect.sleep(Duration.millis(next))
            continue
          }
          const woken = yield* Effect.raceFirst(
            Effect.as(Effect.sleep(Duration.millis(settings.pollMs)), false),
            Effect.as(Deferred.await(signal), true)
          )
          eager = woken ? AFTER_WAKE_MS : []
        }
      })

    if (kinds.length === 0) return
    yield* Effect.logInfo("job workers started").pipe(
      Effect.annotateLogs({ owner: settings.owner, concurrency: settings.concurrency, kinds: kinds.join(",") })
    )
    // A scope's finalizers run last-added first: this one after the loops have stopped.
    yield* Effect.addFinalizer(() =>
      Effect.logInfo("job workers stopped").pipe(Effect.annotateLogs({ owner: settings.owner, jobsHandedBack: handedBack }))
    )
    for (let i = 0; i < settings.concurrency; i++) {
      yield* Effect.forkScoped(loop(`${settings.owner}/${i}`).pipe(Effect.withTracerEnabled(false)))
    }
    // ...and this one first, before they are interrupted.
    yield* Effect.addFinalizer(() =>
      Effect.logInfo("job workers stopping: running jobs are handed back").pipe(
        Effect.annotateLogs({ owner: settings.owner, jobsRunning: running })
      )
    )
  })

/** The job workers as a layer: they run while it is alive (see `runJobWorkers`). */
export const JobWorkersLive = <R>(settings: WorkerSettings, handlers: ReadonlyArray<JobHandler<R>>) =>
  Layer.scopedDiscard(runJobWorkers(settings, handlers)).pipe(Layer.provide(Layer.merge(JobsRepo.Default, JobWake.Default)))
