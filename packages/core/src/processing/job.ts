import { Effect } from "effect"
import { failJobOnSqlError } from "../common/database-failures.js"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import { type ProcessOptions, ContentProcessor } from "./processor.js"

/**
 * The `content.process` job: runs the pipeline for the job's content; when it
 * fails for good the content's statuses say FAILED with the reason. Either
 * outcome is recorded in the transaction that marks the job's
 * (`content.processed`, `content.processing_failed`); a skipped run is no
 * act and records nothing.
 */
export const contentProcessingJob = (options: ProcessOptions = {}) =>
  Effect.map(ContentProcessor, (processor): JobHandler<never> => ({
    kind: "content.process",
    annotations: (job) => ({ contentId: job.subjectId }),
    run: (job) =>
      processor.process({ orgId: job.orgId, contentId: job.subjectId }, options).pipe(
        Effect.flatMap((outcome) =>
          outcome._tag === "Skipped"
            ? Effect.logInfo(`content not processed: ${outcome.reason}`)
            : Effect.succeed(processor.recordProcessed({ orgId: job.orgId, contentId: job.subjectId }))
        ),
        failJobOnSqlError,
        Effect.catchTag("ExtractionFailed", (error) =>
          Effect.fail(new JobFailure({ reason: `Knowledge extraction failed: ${error.reason}` })))
      ),
    onFailed: (job, reason) => processor.markFailed({ orgId: job.orgId, contentId: job.subjectId }, reason)
  }))
