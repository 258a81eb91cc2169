import { Either, Schedule } from "effect"
import type { WebhookAnswer, WebhookUnreachable } from "@tks/adapters/webhooks/port"
import { FAILING_DAYS_BEFORE_DISABLE } from "@tks/domain/webhooks"
import { eventWire } from "../journal/event-wire.js"
import { formatDue } from "../notifications/render.js"
import type { AttemptRecord, DeliveryToSend } from "./deliveries-repo.js"

/**
 * What both delivery jobs (a batch's first attempts, one delivery's next)
 * agree on: the body sent, how an outcome is read and logged, and the
 * reasons a delivery ends without one.
 */

// Recording an attempt gets a few quick tries of its own: a delivery made but
// not recorded would be made again by the job's retry.
export const recordRetries = Schedule.exponential("100 millis").pipe(Schedule.intersect(Schedule.recurs(3)))

export const ENDPOINT_DISABLED = "the endpoint is disabled"
export const EVENT_GONE = "the event is no longer in the feed (events are kept 30 days)"
export const GONE_410 = "the endpoint answered 410 Gone"
export const DISABLED_FOR_410 = "it answered 410 Gone"

/** Why an endpoint failing since `since` is disabled. */
export const disabledForFailing = (since: Date) =>
  `every delivery has failed since ${formatDue(since.toISOString())} (${FAILING_DAYS_BEFORE_DISABLE} days)`

/** The body POSTed: a ping's own, or the event as the feed lists it; null when the feed no longer keeps the event. */
export const bodyOf = (row: DeliveryToSend): string | null =>
  row.payload !== null ? JSON.stringify(row.payload) : row.event === null ? null : JSON.stringify(eventWire(row.event))

export type Outcome = Either.Either<WebhookAnswer, WebhookUnreachable>

/** The status the receiver answered, or null when it did not answer. */
export const statusOf = (outcome: Outcome): number | null => (Either.isRight(outcome) ? outcome.right.status : null)

export const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300

/** What the log says of an answer that is not a success. */
const answered = (answer: WebhookAnswer) =>
  answer.status >= 300 && answer.status < 400 ? `answered ${answer.status} (redirects are not followed)` : `answered ${answer.status}`

export const recordOf = (outcome: Outcome): AttemptRecord =>
  Either.match(outcome, {
    onRight: (answer) => ({
      status: answer.status,
      latencyMs: answer.latencyMs,
      body: answer.body,
      error: isSuccess(answer.status) ? null : answered(answer)
    }),
    onLeft: (failure) => ({ status: null, latencyMs: failure.latencyMs, body: null, error: failure.reason })
  })
