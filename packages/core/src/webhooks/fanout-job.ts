import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { failJobOnSqlError } from "../common/database-failures.js"
import type { JobHandler } from "../jobs/handler.js"
import { JobsRepo } from "../jobs/repo.js"
import { WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { spanOf } from "./span.js"
import { fanoutSubject, parseFanoutSubject } from "./fanout.js"

/**
 * How many deliveries one "webhook.deliver-batch" job sends: enough that a
 * batch's four statements cost little per delivery, few enough that a
 * batch to a receiver that answers slowly stays short and the endpoint's
 * deliveries spread over the webhook workers.
 */
export const WEBHOOK_BATCH_SIZE = 50

/**
 * The "webhook.fanout" job (subject: an endpoint and the span of an act's
 * positions, fanout.ts), after the act committed: writes the endpoint's
 * deliveries of the act's events and queues a "webhook.deliver-batch" job
 * for each WEBHOOK_BATCH_SIZE of them in feed order (deliver-batch-job.ts),
 * set-based, in one transaction. Running it again writes and queues nothing
 * twice: an event the endpoint has is passed over.
 */
export const webhookFanoutJob = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const deliveries = yield* WebhookDeliveriesRepo
  const jobs = yield* JobsRepo

  const handler: JobHandler<never> = {
    kind: "webhook.fanout",
    annotations: (job) => ({ webhookFanout: job.subjectId }),
    run: (job) =>
      Effect.gen(function*() {
        const subject = parseFanoutSubject(job.subjectId)
        if (subject === undefined) return yield* Effect.logWarning("webhook fan-out subject not understood; nothing queued")
        yield* Effect.gen(function*() {
          const positions = [...(yield* deliveries.fanOut(job.orgId, subject.endpointId, subject.span))].sort(byNumber)
          const batches: Array<string> = []
          for (let at = 0; at < positions.length; at += WEBHOOK_BATCH_SIZE) {
            batches.push(fanoutSubject(subject.endpointId, spanOf(positions.slice(at, at + WEBHOOK_BATCH_SIZE))))
          }
          yield* jobs.enqueueMany({ orgId: job.orgId, kind: "webhook.deliver-batch", subjectIds: batches })
          yield* Effect.logInfo("webhook deliveries queued").pipe(Effect.annotateLogs({ deliveries: positions.length, batches: batches.length }))
        }).pipe(sql.withTransaction)
      }).pipe(failJobOnSqlError),
    onFailed: () => Effect.void
  }
  return handler
  // Its own queue handle: a wake from it does not reach this process's idle workers, which find the jobs at their next poll.
}).pipe(Effect.provide(Layer.merge(WebhookDeliveriesRepo.Default, JobsRepo.Default)))

/** Positions (bigint text) in numeric order. */
const byNumber = (a: string, b: string) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0)
