import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { WebhookSender } from "@tks/adapters/webhooks/port"
import { failJobOnSqlError } from "../common/database-failures.js"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import type { ClaimedJob } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { NotificationOutbox } from "../notifications/outbox.js"
import {
  bodyOf,
  DISABLED_FOR_410,
  disabledForFailing,
  ENDPOINT_DISABLED,
  EVENT_GONE,
  GONE_410,
  isSuccess,
  type Outcome,
  recordOf,
  recordRetries,
  statusOf
} from "./attempt.js"
import { type DeliveryRef, type DeliveryToSend, WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { endpointDisabler } from "./disable-endpoint.js"
import { WebhookEndpointsRepo } from "./endpoints-repo.js"
import { webhookRetryInMs } from "./schedule.js"

/**
 * The "webhook.deliver" job (subject: the delivery's id): one signed POST
 * of the delivery's body to its endpoint (docs/webhooks.md). It makes
 * every attempt after an event's first (made by its batch,
 * deliver-batch-job.ts), and each attempt of a ping or a replay.
 *
 * - Already SUCCEEDED or FAILED, or gone with its endpoint: nothing.
 * - The endpoint disabled, or the event no longer in the feed: FAILED
 *   without an attempt.
 * - A 2xx answer: SUCCEEDED; the endpoint is no longer failing.
 * - 410 Gone: FAILED, and the endpoint is disabled.
 * - Anything else (another status, a redirect, no answer): the attempt is
 *   recorded and the job fails, so the workers try again on the webhook
 *   schedule (schedule.ts); out of attempts, `onFailed` marks it FAILED.
 *   An endpoint failing for FAILING_DAYS_BEFORE_DISABLE days is disabled.
 *
 * The service disabling an endpoint is an act of its own: audited, and the
 * organization's admins are told by email, in the transaction that records
 * the attempt.
 *
 * Sending and recording form one uninterruptible region, bounded by the
 * sender's 10 s timeout: a shutdown waits for a delivery already sent to be
 * recorded. A crash inside it leaves the delivery PENDING and it goes again
 * with the same `webhook-id`: at least once, and a repeat is recognisable.
 */
export const webhookDeliveryJob = (settings: { readonly retryBaseMs: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const deliveries = yield* WebhookDeliveriesRepo
    const endpoints = yield* WebhookEndpointsRepo
    const sender = yield* WebhookSender
    const disableEndpoint = yield* endpointDisabler
    const retryInMs = (attempt: number) => webhookRetryInMs(attempt, settings.retryBaseMs)

    /** Records the attempt and what follows from it, in one transaction; fails the job when it is to be tried again. */
    const settle = (job: ClaimedJob, ref: DeliveryRef, row: DeliveryToSend, outcome: Outcome) => {
      const attempt = recordOf(outcome)
      const status = statusOf(outcome)
      if (isSuccess(status)) {
        return deliveries.succeeded(ref, row.endpoint_id, attempt).pipe(
          Effect.retry(recordRetries),
          Effect.zipRight(Effect.logInfo("webhook delivered"))
        )
      }
      if (status === 410) {
        return Effect.zipRight(
          deliveries.giveUp(ref, GONE_410, attempt),
          disableEndpoint(ref.orgId, row.endpoint_id, DISABLED_FOR_410)
        ).pipe(sql.withTransaction)
      }
      return Effect.gen(function*() {
        const failing = yield* endpoints.markFailing(ref.orgId, row.endpoint_id)
        if (failing?.overdue === true) {
          yield* deliveries.giveUp(ref, attempt.error!, attempt)
          yield* disableEndpoint(ref.orgId, row.endpoint_id, disabledForFailing(failing.failing_since))
          return false
        }
        yield* deliveries.retrying(ref, attempt, job.attempt < job.maxAttempts ? retryInMs(job.attempt) : null)
        return true
      }).pipe(
        sql.withTransaction,
        Effect.flatMap((again) => (again ? Effect.fail(new JobFailure({ reason: attempt.error! })) : Effect.void))
      )
    }

    const run = (job: ClaimedJob) =>
      Effect.gen(function*() {
        const ref: DeliveryRef = { orgId: job.orgId, id: job.subjectId }
        const found = yield* deliveries.load(ref)
        if (Option.isNone(found)) return yield* Effect.logInfo("webhook delivery not found (its endpoint was deleted); nothing to do")
        const row = found.value
        if (row.status !== "PENDING") return yield* Effect.logInfo(`webhook delivery already ${row.status}; nothing to do`)
        if (row.endpoint_disabled) return yield* deliveries.giveUp(ref, ENDPOINT_DISABLED)
        const body = bodyOf(row)
        if (body === null) return yield* deliveries.giveUp(ref, EVENT_GONE)
        yield* sender.post({ url: row.url, messageId: row.event_id, body, secrets: row.secrets }).pipe(
          Effect.either,
          Effect.flatMap((outcome) => settle(job, ref, row, outcome)),
          Effect.annotateLogs({ endpointId: row.endpoint_id, webhookId: row.event_id }),
          Effect.uninterruptible
        )
      }).pipe(failJobOnSqlError)

    const handler: JobHandler<never> = {
      kind: "webhook.deliver",
      annotations: (job) => ({ webhookDeliveryId: job.subjectId }),
      run,
      onFailed: (job, reason) => deliveries.giveUp({ orgId: job.orgId, id: job.subjectId }, `given up after its last attempt: ${reason}`),
      retryInMs
    }
    return handler
  }).pipe(Effect.provide(Layer.mergeAll(WebhookDeliveriesRepo.Default, WebhookEndpointsRepo.Default, NotificationOutbox.Default, Journal.Default)))
