import { SqlClient } from "@effect/sql"
import { Effect, Either, Layer, Option, Schedule } from "effect"
import { type WebhookAnswer, WebhookSender, type WebhookUnreachable } from "@tks/adapters/webhooks/port"
import { Caller } from "@tks/domain/caller"
import type { OrganizationId } from "@tks/domain/ids"
import { FAILING_DAYS_BEFORE_DISABLE } from "@tks/domain/webhooks"
import { failJobOnSqlError } from "../common/database-failures.js"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import type { ClaimedJob } from "../jobs/repo.js"
import { Journal } from "../journal/journal.js"
import { eventWire } from "../journal/event-wire.js"
import { NotificationOutbox } from "../notifications/outbox.js"
import { formatDue } from "../notifications/render.js"
import { type AttemptRecord, type DeliveryRef, type DeliveryToSend, WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { WebhookEndpointsRepo } from "./endpoints-repo.js"
import { webhookRetryInMs } from "./schedule.js"

// Recording an attempt gets a few quick tries of its own: a delivery made but
// not recorded would be made again by the job's retry.
const recordRetries = Schedule.exponential("100 millis").pipe(Schedule.intersect(Schedule.recurs(3)))

/** What the log says of an answer that is not a success. */
const answered = (answer: WebhookAnswer) =>
  answer.status >= 300 && answer.status < 400 ? `answered ${answer.status} (redirects are not followed)` : `answered ${answer.status}`

const recordOf = (outcome: Either.Either<WebhookAnswer, WebhookUnreachable>): AttemptRecord =>
  Either.match(outcome, {
    onRight: (answer) => ({
      status: answer.status,
      latencyMs: answer.latencyMs,
      body: answer.body,
      error: answer.status >= 200 && answer.status < 300 ? null : answered(answer)
    }),
    onLeft: (failure) => ({ status: null, latencyMs: failure.latencyMs, body: null, error: failure.reason })
  })

/**
 * The "webhook.deliver" job (subject: the delivery's id): one signed POST
 * of the delivery's body to its endpoint (docs/webhooks.md).
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
    const outbox = yield* NotificationOutbox
    const journal = yield* Journal
    const retryInMs = (attempt: number) => webhookRetryInMs(attempt, settings.retryBaseMs)

    /** Stops deliveries to the endpoint (when it was still enabled): audited as the worker's act, and the admins told by email. */
    const disableEndpoint = (orgId: OrganizationId, endpointId: string, reason: string) =>
      Effect.gen(function*() {
        const row = yield* endpoints.disable(orgId, endpointId, reason)
        if (row === undefined) return
        yield* journal.record({
          caller: Caller.system("worker"),
          orgId,
          action: "webhook_endpoint.updated",
          targets: [{ type: "webhook_endpoint", id: endpointId }],
          changes: { disabled: { old: false, new: true } }
        })
        yield* outbox.tell({
          orgId,
          userIds: yield* endpoints.adminIds(orgId),
          notice: { _tag: "WebhookEndpointDisabled", endpointId, url: row.url, reason },
          channels: ["email"]
        })
        yield* Effect.logWarning("webhook endpoint disabled").pipe(Effect.annotateLogs({ endpointId, reason }))
      })

    /** Records the attempt and what follows from it, in one transaction; fails the job when it is to be tried again. */
    const settle = (job: ClaimedJob, ref: DeliveryRef, row: DeliveryToSend, outcome: Either.Either<WebhookAnswer, WebhookUnreachable>) => {
      const attempt = recordOf(outcome)
      const status = Either.isRight(outcome) ? outcome.right.status : null
      if (status !== null && status >= 200 && status < 300) {
        return deliveries.succeeded(ref, row.endpoint_id, attempt).pipe(
          Effect.retry(recordRetries),
          Effect.zipRight(Effect.logInfo("webhook delivered"))
        )
      }
      if (status === 410) {
        return Effect.zipRight(
          deliveries.giveUp(ref, "the endpoint answered 410 Gone", attempt),
          disableEndpoint(ref.orgId, row.endpoint_id, "it answered 410 Gone")
        ).pipe(sql.withTransaction)
      }
      return Effect.gen(function*() {
        const failing = yield* endpoints.markFailing(ref.orgId, row.endpoint_id)
        if (failing?.overdue === true) {
          yield* deliveries.giveUp(ref, attempt.error!, attempt)
          yield* disableEndpoint(
            ref.orgId,
            row.endpoint_id,
            `every delivery has failed since ${formatDue(failing.failing_since.toISOString())} (${FAILING_DAYS_BEFORE_DISABLE} days)`
          )
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
        if (row.endpoint_disabled) return yield* deliveries.giveUp(ref, "the endpoint is disabled")
        const body = row.payload !== null ? JSON.stringify(row.payload) : row.event === null ? null : JSON.stringify(eventWire(row.event))
        if (body === null) return yield* deliveries.giveUp(ref, "the event is no longer in the feed (events are kept 30 days)")
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
