import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { failJobOnSqlError } from "../common/database-failures.js"
import type { JobHandler } from "../jobs/handler.js"
import { JobsRepo } from "../jobs/repo.js"
import { WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { parseFanoutSubject } from "./fanout.js"
import { WEBHOOK_DELIVERY_ATTEMPTS } from "./schedule.js"

/**
 * The "webhook.fanout" job (subject: an endpoint and the span of an act's
 * positions, fanout.ts), after the act committed: writes the endpoint's
 * deliveries of the act's events and queues one "webhook.deliver" job for
 * each, set-based, in one transaction. Running it again writes and queues
 * nothing twice: an event the endpoint has is passed over.
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
          const ids = yield* deliveries.fanOut(job.orgId, subject.endpointId, subject.span)
          yield* jobs.enqueueMany({ orgId: job.orgId, kind: "webhook.deliver", subjectIds: ids, maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS })
          yield* Effect.logInfo("webhook deliveries queued").pipe(Effect.annotateLogs({ deliveries: ids.length }))
        }).pipe(sql.withTransaction)
      }).pipe(failJobOnSqlError),
    onFailed: () => Effect.void
  }
  return handler
  // Its own queue handle: a wake from it does not reach this process's idle workers, which find the jobs at their next poll.
}).pipe(Effect.provide(Layer.merge(WebhookDeliveriesRepo.Default, JobsRepo.Default)))
