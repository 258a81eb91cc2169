import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Logger, LogLevel, Option } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { JobFailure, type JobHandler } from "../src/jobs/handler.js"
import { type ClaimedJob, JobsRepo } from "../src/jobs/repo.js"
import { JobWake } from "../src/jobs/wake.js"
import { runJobWorkers } from "../src/jobs/worker.js"
import { eventually, insertOrganization, onlyJobOf } from "./support/jobs.js"
import { recordingTracer } from "./support/recording-tracer.js"

const TestLayer = Layer.mergeAll(JobsRepo.Default, JobWake.Default).pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

const handlerOf = (run: (job: ClaimedJob) => Effect.Effect<void, JobFailure>): JobHandler<never> => ({
  kind: "content.process",
  annotations: (job) => ({ contentId: job.subjectId }),
  run,
  onFailed: () => Effect.void
})

const workers = (handler: JobHandler<never>) =>
  runJobWorkers({ owner: "traced-worker", concurrency: 1, pollMs: 60_000, leaseMs: 60_000, retryBaseMs: 60_000 }, [handler])

const traceparentOf = (subjectId: string) =>
  SqlClient.SqlClient.pipe(
    Effect.flatMap((sql) => sql<{ traceparent: string | null }>`SELECT traceparent FROM jobs WHERE subject_id = ${subjectId}`),
    Effect.map((rows) => rows[0]?.traceparent),
    Effect.orDie
  )

const statusIs = (subjectId: string, status: string) => Effect.map(onlyJobOf(subjectId), (job) => job.status === status)

/** Queues a job for `subjectId` inside a span named "request"; the span. */
const enqueueInRequest = (subjectId: string) =>
  Effect.gen(function*() {
    const orgId = yield* insertOrganization("traced")
    const repo = yield* JobsRepo
    return yield* Effect.zipLeft(Effect.currentSpan, repo.enqueue({ orgId, kind: "content.process", subjectId })).pipe(
      Effect.withSpan("request"),
      Effect.map((span) => ({ span, orgId }))
    )
  }).pipe(Effect.orDie)

layer(TestLayer, { excludeTestServices: true })("job traces", (it) => {
  it.effect("a job queued inside a span keeps that span's W3C traceparent; one queued with tracing off keeps none", () =>
    Effect.gen(function*() {
      const { span } = yield* enqueueInRequest("cnt_traceparent")
      expect(yield* traceparentOf("cnt_traceparent")).toBe(`00-${span.traceId}-${span.spanId}-01`)
      yield* enqueueInRequest("cnt_untraced").pipe(Effect.withTracerEnabled(false))
      expect(yield* traceparentOf("cnt_untraced")).toBeNull()
    }))

  it.scoped("a job's run is a root span linked to the span that queued it, with the job's kind, attempt and organization, and its SQL under it", () =>
    Effect.gen(function*() {
      const { tracer, spans } = yield* recordingTracer
      yield* workers(handlerOf(() => Effect.void)).pipe(Effect.withTracer(tracer))
      const { span: request, orgId } = yield* enqueueInRequest("cnt_linked")
      yield* eventually(statusIs("cnt_linked", "COMPLETED"))
      const run = spans.find((span) => span.name === "job content.process" && span.attributes.get("tks.job.subject_id") === "cnt_linked")
      expect(run).toBeDefined()
      expect(run!.kind).toBe("consumer")
      expect(Option.isNone(run!.parent)).toBe(true)
      expect(run!.traceId).not.toBe(request.traceId)
      expect(run!.links.map((link) => [link.span.traceId, link.span.spanId])).toEqual([[request.traceId, request.spanId]])
      expect(Object.fromEntries(run!.attributes)).toMatchObject({
        "tks.job.kind": "content.process",
        "tks.job.attempt": 1,
        "tks.job.max_attempts": 5,
        "tks.organization_id": orgId,
        "tks.job.outcome": "completed"
      })
      yield* eventually(Effect.sync(() => run!.status._tag === "Ended"))
      // The COMPLETED write is the run's own statement.
      const statements = spans.filter((span) => span.name === "sql.execute" && span.traceId === run!.traceId)
      expect(statements.some((span) => String(span.attributes.get("db.query.text")).includes("status = 'COMPLETED'"))).toBe(true)
      expect(statements.every((span) => Option.isSome(span.parent))).toBe(true)
    }))

  it.scoped("a failed attempt fails its span, with the reason and what comes next", () =>
    Effect.gen(function*() {
      const { tracer, spans } = yield* recordingTracer
      yield* workers(handlerOf(() => Effect.fail(new JobFailure({ reason: "the extractor said no" })))).pipe(Effect.withTracer(tracer))
      yield* enqueueInRequest("cnt_failing")
      yield* eventually(Effect.map(onlyJobOf("cnt_failing"), (job) => job.last_error !== null))
      const run = spans.find((span) => span.name === "job content.process" && span.attributes.get("tks.job.subject_id") === "cnt_failing")
      yield* eventually(Effect.sync(() => run?.status._tag === "Ended"))
      expect(run!.attributes.get("tks.job.outcome")).toBe("retrying")
      const exit = run!.status._tag === "Ended" ? run!.status.exit : Exit.void
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain("the extractor said no")
    }))

  it.scoped("with tracing off, neither the workers' polls nor a job's run make a span", () =>
    Effect.gen(function*() {
      const { tracer, spans } = yield* recordingTracer
      yield* workers(handlerOf(() => Effect.void)).pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(false))
      yield* enqueueInRequest("cnt_dark").pipe(Effect.withTracerEnabled(false))
      yield* eventually(statusIs("cnt_dark", "COMPLETED"))
      expect(spans.map((span) => span.name)).toEqual([])
    }))
})
