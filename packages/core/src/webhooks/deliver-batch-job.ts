import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { WebhookSender } from "@tks/adapters/webhooks/port"
import { failJobOnSqlError } from "../common/database-failures.js"
import type { JobHandler } from "../jobs/handler.js"
import { type ClaimedJob, JobsRepo } from "../jobs/repo.js"
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
  recordOf,
  recordRetries,
  statusOf
} from "./attempt.js"
import { type Settlement, WebhookDeliveriesRepo } from "./deliveries-repo.js"
import { endpointDisabler } from "./disable-endpoint.js"
import { WebhookEndpointsRepo } from "./endpoints-repo.js"
import { parseFanoutSubject } from "./fanout.js"
import type { FanoutSpan } from "./span.js"
import { WEBHOOK_DELIVERY_ATTEMPTS, webhookRetryInMs } from "./schedule.js"

/**
 * The "webhook.deliver-batch" job (subject: an endpoint and a span of event
 * positions, as a fan-out's): the first attempt of each of the endpoint's
 * deliveries in the span, one signed POST after another in feed order,
 * then every outcome recorded at once (docs/webhooks.md).
 *
 * One delivery job per event cost five statements per delivery (claim,
 * load, record, complete, and the fan-out's row); on the embedded database,
 * where statements run one at a time, that held the drain to 60 a second.
 * A batch costs four statements for all of its deliveries.
 *
 * - A 2xx answer: SUCCEEDED; the endpoint is no longer failing.
 * - 410 Gone: that delivery FAILED, the endpoint disabled, and the batch's
 *   rest FAILED without an attempt.
 * - Anything else: the attempt is recorded and the delivery gets a
 *   "webhook.deliver" job of its own, due on the webhook schedule with this
 *   attempt counted. A batch with no success marks the endpoint failing; one
 *   failing for FAILING_DAYS_BEFORE_DISABLE days is disabled instead.
 * - The endpoint disabled, or an event no longer in the feed: FAILED
 *   without an attempt.
 *
 * Each POST and its outcome's place in the batch are one uninterruptible
 * step, bounded by the sender's 10 s timeout. Interrupted (a shutdown),
 * the batch records what it sent and stops; the job goes back to the queue
 * and the next run sends only the deliveries still never tried. Killed
 * between a POST and the record, the delivery goes again with the same
 * `webhook-id`: at least once, and a repeat is recognisable.
 */
export const webhookBatchJob = (settings: { readonly retryBaseMs: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const deliveries = yield* WebhookDeliveriesRepo
    const endpoints = yield* WebhookEndpointsRepo
    const jobs = yield* JobsRepo
    const sender = yield* WebhookSender
    const disableEndpoint = yield* endpointDisabler
    const retryInMs = webhookRetryInMs(1, settings.retryBaseMs)

    const unattempted = (id: string, reason: string): Settlement => ({ id, attempt: null, status: "FAILED", error: reason, retryInMs: null })

    /** The batch's outcomes, what follows from them, and the retries' jobs, in one transaction. */
    const record = (job: ClaimedJob, endpointId: string, outcomes: ReadonlyArray<Settlement>, gone: boolean) =>
      Effect.gen(function*() {
        if (outcomes.length === 0) return
        let settled = outcomes
        let disabledFor: string | null = gone ? DISABLED_FOR_410 : null
        const retries = outcomes.some((outcome) => outcome.status === "PENDING")
        if (retries && !outcomes.some((outcome) => outcome.status === "SUCCEEDED")) {
          const failing = yield* endpoints.markFailing(job.orgId, endpointId)
          if (failing?.overdue === true) {
            disabledFor = disabledForFailing(failing.failing_since)
            settled = outcomes.map((outcome) => outcome.status === "PENDING" ? { ...outcome, status: "FAILED", retryInMs: null } : outcome)
          }
        }
        const again = yield* deliveries.settleMany(job.orgId, endpointId, settled)
        yield* jobs.enqueueMany({
          orgId: job.orgId,
          kind: "webhook.deliver",
          subjectIds: again,
          maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS,
          attemptsMade: 1,
          afterMs: retryInMs
        })
        if (disabledFor !== null) yield* disableEndpoint(job.orgId, endpointId, disabledFor)
        const count = (status: string) => outcomes.filter((outcome) => outcome.status === status).length
        yield* Effect.logInfo("webhook batch recorded").pipe(
          Effect.annotateLogs({ succeeded: count("SUCCEEDED"), retrying: again.length, failed: count("FAILED") })
        )
      }).pipe(sql.withTransaction, Effect.retry(recordRetries))

    const send = (job: ClaimedJob, endpointId: string, span: FanoutSpan) =>
      Effect.gen(function*() {
        const rows = yield* deliveries.firstAttempts(job.orgId, endpointId, span)
        if (rows.length === 0) return yield* Effect.logInfo("webhook batch has nothing left to send")
        if (rows[0]!.endpoint_disabled) {
          return yield* record(job, endpointId, rows.map((row) => unattempted(row.id, ENDPOINT_DISABLED)), false)
        }
        const outcomes: Array<Settlement> = []
        let gone = false
        const one = (row: (typeof rows)[number]) =>
          Effect.suspend(() => {
            if (gone) return Effect.sync(() => outcomes.push(unattempted(row.id, ENDPOINT_DISABLED)))
            const body = bodyOf(row)
            if (body === null) return Effect.sync(() => outcomes.push(unattempted(row.id, EVENT_GONE)))
            return sender.post({ url: row.url, messageId: row.event_id, body, secrets: row.secrets }).pipe(
              Effect.either,
              Effect.map((outcome) => {
                const attempt = recordOf(outcome)
                const status = statusOf(outcome)
                if (isSuccess(status)) outcomes.push({ id: row.id, attempt, status: "SUCCEEDED", error: null, retryInMs: null })
                else if (status === 410) {
                  gone = true
                  outcomes.push({ id: row.id, attempt, status: "FAILED", error: GONE_410, retryInMs: null })
                } else outcomes.push({ id: row.id, attempt, status: "PENDING", error: attempt.error, retryInMs })
              }),
              Effect.uninterruptible
            )
          })
        // Whatever ends the sending, what was sent is recorded before the job lets go of the batch.
        yield* Effect.uninterruptibleMask((restore) =>
          restore(Effect.forEach(rows, one, { discard: true })).pipe(
            Effect.exit,
            Effect.flatMap((exit) => Effect.zipRight(record(job, endpointId, outcomes, gone), exit))
          )
        )
      }).pipe(Effect.annotateLogs({ endpointId }))

    const handler: JobHandler<never> = {
      kind: "webhook.deliver-batch",
      annotations: (job) => ({ webhookBatch: job.subjectId }),
      run: (job) =>
        Effect.gen(function*() {
          const subject = parseFanoutSubject(job.subjectId)
          if (subject === undefined) return yield* Effect.logWarning("webhook batch subject not understood; nothing sent")
          yield* send(job, subject.endpointId, subject.span)
        }).pipe(failJobOnSqlError),
      // Out of attempts (the database refused the record each time): every delivery still untried gets a job of its own.
      onFailed: (job) =>
        Effect.gen(function*() {
          const subject = parseFanoutSubject(job.subjectId)
          if (subject === undefined) return
          const rows = yield* deliveries.firstAttempts(job.orgId, subject.endpointId, subject.span)
          yield* jobs.enqueueMany({
            orgId: job.orgId,
            kind: "webhook.deliver",
            subjectIds: rows.map((row) => row.id),
            maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS
          })
        })
    }
    return handler
  }).pipe(Effect.provide(Layer.mergeAll(WebhookDeliveriesRepo.Default, WebhookEndpointsRepo.Default, JobsRepo.Default, NotificationOutbox.Default, Journal.Default)))
