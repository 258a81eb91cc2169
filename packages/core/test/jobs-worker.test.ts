import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, HashMap, Layer, Logger, LogLevel, Ref, Scope } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { JobFailure, type JobHandler } from "../src/jobs/handler.js"
import { type ClaimedJob, JobsRepo } from "../src/jobs/repo.js"
import { JobWake } from "../src/jobs/wake.js"
import { runJobWorkers, type WorkerSettings } from "../src/jobs/worker.js"
import { eventually, insertOrganization, onlyJobOf } from "./support/jobs.js"

const TestLayer = Layer.mergeAll(JobsRepo.Default, JobWake.Default).pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

const settings = (over: Partial<WorkerSettings> = {}): WorkerSettings => ({
  owner: "test-worker",
  concurrency: 2,
  pollMs: 60_000,
  leaseMs: 60_000,
  retryBaseMs: 20,
  ...over
})

const handlerOf = (
  run: (job: ClaimedJob) => Effect.Effect<void, JobFailure>,
  failed?: Ref.Ref<ReadonlyArray<string>>
): JobHandler<never> => ({
  kind: "content.process",
  annotations: (job) => ({ contentId: job.subjectId }),
  run,
  onFailed: (job, reason) => failed === undefined ? Effect.void : Ref.update(failed, (all) => [...all, `${job.subjectId}: ${reason}`])
})

/** Runs the workers for the rest of the test (closed with the test's scope). */
const workers = (over: Partial<WorkerSettings>, handler: JobHandler<never>) => runJobWorkers(settings(over), [handler])

const enqueue = (subjectId: string, maxAttempts?: number) =>
  Effect.gen(function*() {
    const repo = yield* JobsRepo
    const orgId = yield* insertOrganization("worker")
    yield* repo.enqueue({ orgId, kind: "content.process", subjectId, ...(maxAttempts === undefined ? {} : { maxAttempts }) })
  })

const statusIs = (subjectId: string, status: string) => Effect.map(onlyJobOf(subjectId), (job) => job.status === status)

// Real time throughout: the workers poll, sleep and hold leases on real clocks.
layer(TestLayer, { excludeTestServices: true })("job workers", (it) => {
  it.scoped("a job enqueued in this process starts at once, though the poll interval is a minute", () =>
    Effect.gen(function*() {
      yield* workers({}, handlerOf(() => Effect.void))
      yield* enqueue("cnt_woken")
      yield* eventually(statusIs("cnt_woken", "COMPLETED"))
      expect((yield* onlyJobOf("cnt_woken")).lease_owner).toMatch(/^test-worker\/[01]$/)
    }))

  it.scoped("a job enqueued inside a transaction that commits a little later still starts without waiting for the poll", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* workers({}, handlerOf(() => Effect.void))
      yield* sql.withTransaction(Effect.zipRight(enqueue("cnt_in_transaction"), Effect.sleep(Duration.millis(60))))
      yield* eventually(statusIs("cnt_in_transaction", "COMPLETED"))
    }))

  it.scoped("a failing job is retried and after its last attempt is FAILED with the reason, told to its handler once", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const failed = yield* Ref.make<ReadonlyArray<string>>([])
      yield* workers(
        { pollMs: 30 },
        handlerOf(() => Effect.zipRight(Ref.update(runs, (n) => n + 1), Effect.fail(new JobFailure({ reason: "the source is broken" }))), failed)
      )
      yield* enqueue("cnt_failing", 3)
      yield* eventually(statusIs("cnt_failing", "FAILED"))
      expect(yield* onlyJobOf("cnt_failing")).toMatchObject({ attempts: 3, last_error: "the source is broken", lease_owner: null })
      expect(yield* Ref.get(runs)).toBe(3)
      expect(yield* Ref.get(failed)).toEqual(["cnt_failing: the source is broken"])
    }))

  it.scoped("a kind with a retry schedule of its own (webhooks) is retried after the wait it says, not the workers' doubling", () =>
    Effect.gen(function*() {
      const failing = () => Effect.fail(new JobFailure({ reason: "not yet" }))
      yield* workers({ pollMs: 30 }, { ...handlerOf(failing), retryInMs: (attempt) => 3_600_000 + attempt })
      yield* enqueue("cnt_own_schedule")
      yield* eventually(Effect.map(onlyJobOf("cnt_own_schedule"), (job) => job.attempts === 1 && job.status === "PENDING"))
      expect((yield* onlyJobOf("cnt_own_schedule")).retry_in_ms).toBe(3_600_001)
    }))

  it.scoped("a kind without a schedule of its own keeps the workers' doubling from the base, at most ten minutes", () =>
    Effect.gen(function*() {
      const failing = () => Effect.fail(new JobFailure({ reason: "not yet" }))
      yield* workers({ pollMs: 60_000, retryBaseMs: 3_600_000 }, handlerOf(failing))
      yield* enqueue("cnt_default_schedule")
      yield* eventually(Effect.map(onlyJobOf("cnt_default_schedule"), (job) => job.attempts === 1 && job.status === "PENDING"))
      expect((yield* onlyJobOf("cnt_default_schedule")).retry_in_ms).toBe(600_000)
    }))

  it.scoped("a job that dies is a failure with the defect's message", () =>
    Effect.gen(function*() {
      yield* workers({ pollMs: 30 }, handlerOf(() => Effect.dieMessage("kaput")))
      yield* enqueue("cnt_dies", 1)
      yield* eventually(statusIs("cnt_dies", "FAILED"))
      expect((yield* onlyJobOf("cnt_dies")).last_error).toBe("Unexpected error: kaput")
    }))

  it.scoped("a worker whose lease is taken over stops the job and writes nothing more about it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const interrupted = yield* Ref.make(false)
      yield* workers(
        { leaseMs: 300 },
        handlerOf(() => Effect.sleep(Duration.seconds(20)).pipe(Effect.onInterrupt(() => Ref.set(interrupted, true))))
      )
      yield* enqueue("cnt_stolen")
      yield* eventually(statusIs("cnt_stolen", "RUNNING"))
      yield* sql`UPDATE jobs SET lease_owner = 'thief', lease_expires_at = now() + interval '1 minute' WHERE subject_id = 'cnt_stolen'`
      yield* eventually(Ref.get(interrupted))
      yield* Effect.sleep(Duration.millis(100))
      expect(yield* onlyJobOf("cnt_stolen")).toMatchObject({ status: "RUNNING", lease_owner: "thief", last_error: null })
      yield* sql`UPDATE jobs SET status = 'COMPLETED' WHERE subject_id = 'cnt_stolen'`
    }))

  it.effect("closing the workers gives a running job back, due at once and without the attempt counted", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      yield* workers({}, handlerOf(() => Effect.never)).pipe(Scope.extend(scope))
      yield* enqueue("cnt_shutdown")
      yield* eventually(statusIs("cnt_shutdown", "RUNNING"))
      yield* Scope.close(scope, Exit.void)
      expect(yield* onlyJobOf("cnt_shutdown")).toMatchObject({ status: "PENDING", attempts: 0, lease_owner: null })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE jobs SET status = 'COMPLETED' WHERE subject_id = 'cnt_shutdown'`)
    }))

  it.effect("closing the workers logs the jobs running when it began and, once the loops have stopped, how many were handed back", () =>
    Effect.gen(function*() {
      const lines: Array<{ message: string; annotations: Record<string, unknown> }> = []
      const capture = Logger.make(({ annotations, message }) => {
        lines.push({ message: Array.isArray(message) ? message.join(" ") : String(message), annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
      })
      const scope = yield* Scope.make()
      yield* workers({}, handlerOf(() => Effect.never)).pipe(
        Effect.provide(Layer.merge(Logger.replace(Logger.defaultLogger, capture), Logger.minimumLogLevel(LogLevel.Info))),
        Scope.extend(scope)
      )
      yield* enqueue("cnt_shutdown_logged")
      yield* eventually(statusIs("cnt_shutdown_logged", "RUNNING"))
      yield* Scope.close(scope, Exit.void)
      const shutdown = lines.filter((line) => line.message.startsWith("job workers stop"))
      expect(shutdown.map((line) => [line.message, line.annotations.jobsRunning ?? line.annotations.jobsHandedBack])).toEqual([
        ["job workers stopping: running jobs are handed back", 1],
        ["job workers stopped", 1]
      ])
      expect(yield* onlyJobOf("cnt_shutdown_logged")).toMatchObject({ status: "PENDING", lease_owner: null })
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE jobs SET status = 'COMPLETED' WHERE subject_id = 'cnt_shutdown_logged'`)
    }))

  it.scoped("a job whose workers kept dying is FAILED for good once its attempts are used up, without running again", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const runs = yield* Ref.make(0)
      const failed = yield* Ref.make<ReadonlyArray<string>>([])
      yield* enqueue("cnt_abandoned", 2)
      yield* sql`UPDATE jobs SET status = 'RUNNING', attempts = 2, lease_owner = 'dead', lease_expires_at = now() - interval '1 second'
                 WHERE subject_id = 'cnt_abandoned'`
      yield* workers({ pollMs: 30 }, handlerOf(() => Ref.update(runs, (n) => n + 1), failed))
      yield* eventually(statusIs("cnt_abandoned", "FAILED"))
      const reason = "Gave up after 2 attempts: the worker running it stopped each time"
      expect(yield* onlyJobOf("cnt_abandoned")).toMatchObject({ attempts: 3, last_error: reason })
      expect(yield* Ref.get(runs)).toBe(0)
      expect(yield* Ref.get(failed)).toEqual([`cnt_abandoned: ${reason}`])
    }))

  it.scoped("no more jobs run at once than the concurrency setting", () =>
    Effect.gen(function*() {
      const running = yield* Ref.make(0)
      const most = yield* Ref.make(0)
      const run = Effect.gen(function*() {
        const now = yield* Ref.updateAndGet(running, (n) => n + 1)
        yield* Ref.update(most, (m) => Math.max(m, now))
        yield* Effect.sleep(Duration.millis(80))
        yield* Ref.update(running, (n) => n - 1)
      })
      yield* workers({ concurrency: 3, pollMs: 30 }, handlerOf(() => run))
      const subjects = Array.from({ length: 9 }, (_, i) => `cnt_concurrency_${i}`)
      for (const subject of subjects) yield* enqueue(subject)
      for (const subject of subjects) yield* eventually(statusIs(subject, "COMPLETED"))
      expect(yield* Ref.get(most)).toBe(3)
    }))

  it.scoped("each job's start and end are logged with its id, kind, subject, attempt and, at the end, its duration", () =>
    Effect.gen(function*() {
      const lines: Array<{ message: string; annotations: Record<string, unknown> }> = []
      const capture = Logger.make(({ annotations, message }) => {
        const text = Array.isArray(message) ? message.join(" ") : String(message)
        lines.push({ message: text, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
      })
      yield* workers({}, handlerOf(() => Effect.void)).pipe(
        Effect.provide(Layer.merge(Logger.replace(Logger.defaultLogger, capture), Logger.minimumLogLevel(LogLevel.Info)))
      )
      yield* enqueue("cnt_logged")
      yield* eventually(statusIs("cnt_logged", "COMPLETED"))
      const job = yield* onlyJobOf("cnt_logged")
      const ofJob = lines.filter((line) => line.annotations.jobId === job.id)
      expect(ofJob.map((line) => line.message)).toEqual(["job started", "job completed"])
      expect(ofJob[0]!.annotations).toMatchObject({ kind: "content.process", contentId: "cnt_logged", attempt: 1 })
      expect(typeof ofJob[1]!.annotations.ms).toBe("number")
    }))
})
