import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { ExtractionFailed } from "@tks/adapters/extraction/port"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import { type ProcessOptions, ContentProcessor } from "./processor.js"

const describe = (error: ExtractionFailed | SqlError): string =>
  error._tag === "ExtractionFailed" ? `Knowledge extraction failed: ${error.reason}` : `Database error: ${error.message}`

/**
 * The `content.process` job: runs the pipeline for the job's content; when it
 * fails for good the content's statuses say FAILED with the reason.
 */
export const contentProcessingJob = (options: ProcessOptions = {}) =>
  Effect.map(ContentProcessor, (processor): JobHandler<never> => ({
    kind: "content.process",
    annotations: (job) => ({ contentId: job.subjectId }),
    run: (job) =>
      processor.process({ orgId: job.orgId, contentId: job.subjectId }, options).pipe(
        Effect.tap((outcome) =>
          outcome._tag === "Skipped" ? Effect.logInfo(`content not processed: ${outcome.reason}`) : Effect.void
        ),
        Effect.asVoid,
        Effect.mapError((error) => new JobFailure({ reason: describe(error) }))
      ),
    onFailed: (job, reason) => processor.markFailed({ orgId: job.orgId, contentId: job.subjectId }, reason)
  }))
