import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { OrganizationId } from "@tks/domain/ids"
import { newId, newIds } from "../common/ids.js"
import { traceparentOf } from "./trace-context.js"
import { JobWake } from "./wake.js"

/**
 * The kinds of job the workers know: processing new content, preparing an
 * enrollment's quiz, writing one pop-quiz recipient's questions,
 * delivering one notification, queueing the webhook deliveries of an act,
 * making the first attempts of a batch of them, and delivering one webhook
 * (a ping, a replay, a retry).
 */
export type JobKind =
  | "content.process"
  | "quiz.prepare"
  | "pop-quiz.prepare"
  | "notification.deliver"
  | "webhook.fanout"
  | "webhook.deliver-batch"
  | "webhook.deliver"

/** A job a worker holds under a lease. `attempt` counts this run (1 for the first). */
export interface ClaimedJob {
  readonly id: string
  readonly orgId: OrganizationId
  readonly kind: JobKind
  readonly subjectId: string
  readonly attempt: number
  readonly maxAttempts: number
  /** The W3C `traceparent` of the span that queued it, when tracing was on then. */
  readonly traceparent?: string
}

/** What `fail` did: scheduled another attempt, failed for good, or nothing (the lease was no longer ours). */
export type FailOutcome = "retrying" | "failed" | "lost"

interface JobRow {
  readonly id: string
  readonly org_id: string
  readonly kind: JobKind
  readonly subject_id: string
  readonly attempts: number
  readonly max_attempts: number
  readonly traceparent: string | null
}

/**
 * The PostgreSQL job queue (migration 0003; docs/architecture.md, Jobs and
 * workers). Enqueueing runs inside
 * the caller's transaction, so a job exists exactly when the act that asked
 * for it committed. At most one open job per (kind, subject): enqueueing
 * again while one is pending or running is a no-op.
 *
 * Every time is the database's (`now()`), so processes with skewed clocks
 * agree on when a lease lapsed. Whatever a worker writes about a job it
 * claimed is conditional on still holding the lease (`lease_owner = $me`
 * and RUNNING): a worker whose lease lapsed and was taken over cannot
 * overwrite the new holder's outcome.
 */
export class JobsRepo extends Effect.Service<JobsRepo>()("@tks/core/JobsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const wake = yield* JobWake

    const enqueue = (input: {
      readonly orgId: OrganizationId
      readonly kind: JobKind
      readonly subjectId: string
      readonly maxAttempts?: number
    }) =>
      Effect.withFiberRuntime<ReadonlyArray<unknown>, SqlError>((fiber) =>
        sql`
        INSERT INTO jobs (id, org_id, kind, subject_id, max_attempts, traceparent)
        VALUES (${newId("job")}, ${input.orgId}, ${input.kind}, ${input.subjectId}, ${input.maxAttempts ?? 5}, ${traceparentOf(fiber)})
        ON CONFLICT (kind, org_id, subject_id) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING`
      ).pipe(
        // Inside a transaction the job is not visible yet; the workers look again shortly after (worker.ts).
        Effect.zipRight(wake.wake)
      )

    /**
     * One job per subject, set-based (one statement however many subjects),
     * in the caller's transaction like `enqueue`: assigning a lesson to
     * thousands of people enqueues their quizzes and notifications at once.
     * A job whose first attempts were made elsewhere (a webhook batch's) says
     * how many (`attemptsMade`, counted against `maxAttempts`) and when the
     * next is due (`afterMs`).
     */
    const enqueueMany = (input: {
      readonly orgId: OrganizationId
      readonly kind: JobKind
      readonly subjectIds: ReadonlyArray<string>
      readonly maxAttempts?: number
      readonly attemptsMade?: number
      readonly afterMs?: number
    }) =>
      input.subjectIds.length === 0
        ? Effect.void
        : Effect.withFiberRuntime<ReadonlyArray<unknown>, SqlError>((fiber) =>
          sql`
        INSERT INTO jobs (id, org_id, kind, subject_id, max_attempts, traceparent, attempts, run_after)
        SELECT subject.job_id, ${input.orgId}, ${input.kind}, subject.id, ${input.maxAttempts ?? 5}, ${traceparentOf(fiber)},
          ${input.attemptsMade ?? 0}, now() + ${input.afterMs ?? 0}::float8 * interval '1 millisecond'
        FROM unnest(${newIds("job", input.subjectIds.length)}::text[], ${[...input.subjectIds]}::text[]) AS subject(job_id, id)
        ON CONFLICT (kind, org_id, subject_id) WHERE status IN ('PENDING', 'RUNNING') DO NOTHING`
        ).pipe(Effect.zipRight(wake.wake))

    /**
     * Makes the open jobs of these subjects that wait for a later retry due
     * now (a replayed webhook delivery is tried at once, not hours later);
     * a job running or already due is left as it is.
     */
    const runSoon = (input: { readonly orgId: OrganizationId; readonly kind: JobKind; readonly subjectIds: ReadonlyArray<string> }) =>
      input.subjectIds.length === 0 ? Effect.void : sql`
        UPDATE jobs SET run_after = now(), updated_at = now()
        WHERE kind = ${input.kind} AND org_id = ${input.orgId} AND subject_id = ANY(${[...input.subjectIds]}::text[])
          AND status = 'PENDING' AND run_after > now()`.pipe(Effect.zipRight(wake.wake))

    /**
     * Takes the oldest due job of `kinds`: PENDING whose `run_after` has come,
     * or RUNNING whose lease lapsed (its worker died or stalled). The oldest
     * due job of each kind is found through its index (migration 0023), so a
     * claim costs the same behind any backlog. SKIP LOCKED lets concurrent
     * claimers pass over a row another is taking; the row is re-checked
     * under its lock, so a job just taken by another is not taken again.
     * The claim counts an attempt.
     */
    const claim = (input: { readonly owner: string; readonly kinds: ReadonlyArray<JobKind>; readonly leaseMs: number }) =>
      sql<JobRow>`
        WITH due AS (
          SELECT oldest.id, oldest.run_after, oldest.created_at
          FROM unnest(${input.kinds}::text[]) AS k(kind)
          CROSS JOIN LATERAL (
            SELECT id, run_after, created_at FROM jobs
            WHERE jobs.kind = k.kind AND status = 'PENDING' AND run_after <= now()
            ORDER BY run_after, created_at, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED
          ) oldest
        ), lapsed AS (
          SELECT id, run_after, created_at FROM jobs
          WHERE status = 'RUNNING' AND lease_expires_at < now() AND kind = ANY(${input.kinds}::text[])
          ORDER BY lease_expires_at
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        ), next AS (
          SELECT id FROM (SELECT * FROM due UNION ALL SELECT * FROM lapsed) candidates
          ORDER BY run_after, created_at, id
          LIMIT 1
        )
        UPDATE jobs SET status = 'RUNNING', attempts = attempts + 1, lease_owner = ${input.owner},
          lease_expires_at = now() + ${input.leaseMs}::float8 * interval '1 millisecond', updated_at = now()
        FROM next
        WHERE jobs.id = next.id
        RETURNING jobs.id, jobs.org_id, jobs.kind, jobs.subject_id, jobs.attempts, jobs.max_attempts, jobs.traceparent`.pipe(
        Effect.map((rows) =>
          Option.fromNullable(rows[0]).pipe(Option.map((row): ClaimedJob => ({
            id: row.id,
            orgId: OrganizationId.make(row.org_id),
            kind: row.kind,
            subjectId: row.subject_id,
            attempt: row.attempts,
            maxAttempts: row.max_attempts,
            ...(row.traceparent === null ? {} : { traceparent: row.traceparent })
          })))
        )
      )

    const held = (job: { readonly id: string }, owner: string) =>
      sql`id = ${job.id} AND status = 'RUNNING' AND lease_owner = ${owner}`

    /** Extends the lease; false when it is no longer ours. */
    const renew = (job: ClaimedJob, owner: string, leaseMs: number) =>
      sql<{ id: string }>`
        UPDATE jobs SET lease_expires_at = now() + ${leaseMs}::float8 * interval '1 millisecond', updated_at = now()
        WHERE ${held(job, owner)} RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

    /** COMPLETED (the holder stays recorded as who completed it); false when the lease was no longer ours. */
    const complete = (job: ClaimedJob, owner: string) =>
      sql<{ id: string }>`
        UPDATE jobs SET status = 'COMPLETED', completed_at = now(), lease_expires_at = NULL, last_error = NULL, updated_at = now()
        WHERE ${held(job, owner)} RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

    /**
     * Records a failed attempt: PENDING again after `retryInMs` while
     * attempts remain, otherwise FAILED for good. `last_error` keeps the reason.
     */
    const fail = (job: ClaimedJob, owner: string, reason: string, retryInMs: number) =>
      sql<{ status: string }>`
        UPDATE jobs SET
          status = CASE WHEN attempts >= max_attempts THEN 'FAILED' ELSE 'PENDING' END,
          run_after = CASE WHEN attempts >= max_attempts THEN run_after
                           ELSE now() + ${retryInMs}::float8 * interval '1 millisecond' END,
          lease_owner = NULL, lease_expires_at = NULL, last_error = ${reason}, updated_at = now()
        WHERE ${held(job, owner)} RETURNING status`.pipe(
        Effect.map((rows): FailOutcome => rows[0] === undefined ? "lost" : rows[0].status === "FAILED" ? "failed" : "retrying")
      )

    /**
     * Gives a job back at shutdown: PENDING and due at once, and the attempt
     * it was on is not counted (it was interrupted, it did not fail).
     */
    const release = (job: ClaimedJob, owner: string) =>
      sql`
        UPDATE jobs SET status = 'PENDING', attempts = greatest(attempts - 1, 0), run_after = now(),
          lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
        WHERE ${held(job, owner)}`.pipe(Effect.asVoid)

    return { enqueue, enqueueMany, runSoon, claim, renew, complete, fail, release } as const
  }),
  dependencies: [JobWake.Default]
}) {}
