import { Effect } from "effect"
import type { ContentId, OrganizationId } from "@tks/domain/ids"
import { JobsRepo } from "../jobs/repo.js"
import { traced } from "../common/traced.js"

/**
 * Asks for a content record to be processed. Call `enqueue` inside the
 * transaction that publishes the content (or approves it, or changes its
 * body): the job exists exactly when that commits, and enqueueing again while
 * a job for it is still open adds nothing. The workers (job.ts) do the rest.
 */
export class ContentProcessing extends Effect.Service<ContentProcessing>()("@tks/core/ContentProcessing", {
  effect: Effect.gen(function*() {
    const jobs = yield* JobsRepo

    const enqueue = traced("ContentProcessing.enqueue")(function*(orgId: OrganizationId, contentId: ContentId) {
      yield* jobs.enqueue({ orgId, kind: "content.process", subjectId: contentId })
    })

    return { enqueue } as const
  }),
  dependencies: [JobsRepo.Default]
}) {}
