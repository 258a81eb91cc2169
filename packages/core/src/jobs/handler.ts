import type { SqlError } from "@effect/sql/SqlError"
import { Cause, Data, type Effect } from "effect"
import type { ClaimedJob, JobKind } from "./repo.js"

/** Why an attempt failed, in words kept on the job (`last_error`) and, at the end, on its subject. */
export class JobFailure extends Data.TaggedError("JobFailure")<{ readonly reason: string }> {}

/** Writes that belong to a job's success, done in the transaction that marks it COMPLETED. */
export type OnCompleted<R> = Effect.Effect<void, SqlError, R>

/** How the workers run one kind of job. */
export interface JobHandler<R> {
  readonly kind: JobKind
  /** Log annotations that name the job's subject (e.g. `{ contentId }`). */
  readonly annotations: (job: ClaimedJob) => Record<string, string>
  /**
   * Does the job. It must be safe to run again from the start: after a
   * failure, and after a takeover while the first run may still be writing.
   * It may answer what to write in the transaction that marks the job
   * COMPLETED (the act's journal record), written only while the job is
   * still this worker's.
   */
  readonly run: (job: ClaimedJob) => Effect.Effect<OnCompleted<R> | void, JobFailure, R>
  /** Records on the subject that the job failed for good; runs in the transaction that marks the job FAILED. */
  readonly onFailed: (job: ClaimedJob, reason: string) => Effect.Effect<void, SqlError, R>
  /**
   * The wait before attempt `attempt + 1`, when this kind keeps a schedule
   * of its own (webhooks: minutes to hours); otherwise the workers'
   * doubling `retryDelayMs`.
   */
  readonly retryInMs?: (attempt: number) => number
}

/** The reason of a run that died (a defect, not a JobFailure). */
export const defectReason = (cause: Cause.Cause<unknown>): string => {
  const defect = Cause.squash(cause)
  return `Unexpected error: ${defect instanceof Error ? defect.message : String(defect)}`
}

/** The wait before attempt `attempt + 1`: doubling from `baseMs`, at most ten minutes. */
export const retryDelayMs = (attempt: number, baseMs: number): number =>
  Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 600_000)
