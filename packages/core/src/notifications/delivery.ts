import { Effect, Either, Option, Schedule } from "effect"
import { type Delivered, type DeliveryFailed, permanent } from "@tks/adapters/delivery"
import { MailSender } from "@tks/adapters/mail/port"
import { SmsSender } from "@tks/adapters/sms/port"
import { failJobOnSqlError } from "../common/database-failures.js"
import { JobFailure, type JobHandler } from "../jobs/handler.js"
import { AppLinksConfig } from "./app-links.js"
import { decodeStoredNotice } from "./notice-schema.js"
import { type NotificationRef, NotificationsRepo, type StoredNotification } from "./repo.js"
import { renderEmail, renderText } from "./render.js"

// Recording a sent message gets a few quick tries of its own: a message sent
// but not recorded would be sent again by the job's retry.
const recordRetries = Schedule.exponential("100 millis").pipe(Schedule.intersect(Schedule.recurs(3)))

/**
 * The "notification.deliver" job (subject: the notification's id): sends one
 * outbox row through the email or text adapter.
 *
 * - Already SENT, SKIPPED or FAILED: nothing (a job run again after a
 *   shutdown or a takeover finds the work done).
 * - The person was deactivated since the act: SKIPPED, nothing sent.
 * - Sent: SENT with the provider's id. Refused for good: FAILED. Either way
 *   the attempt is recorded. A retryable failure is recorded and fails the
 *   job, so the workers try again with exponential backoff; out of
 *   attempts, `onFailed` marks it FAILED.
 *
 * Sending and recording it as sent form one uninterruptible region: a
 * shutdown (SIGTERM) waits for a message already handed over to be
 * recorded, instead of leaving it sent but PENDING to be sent again. The
 * region is bounded by the adapters' own deadlines (SMTP_TIMEOUT_MS,
 * TWILIO_TIMEOUT_MS), which do not depend on interruption. A crash (SIGKILL,
 * power loss) inside it still leaves the row PENDING: the job is taken over
 * when its lease lapses and the message goes again with the same
 * Message-ID / Idempotency-Key. Delivery is at least once, and a repeat is
 * recognisable.
 *
 * The words are rendered at delivery from the notice stored at the act,
 * never stored rendered: a message queued before APP_URL or its paths
 * changed goes out with the links of the settings in force when it is sent
 * (none without APP_URL), never with an address into the API.
 */
export const notificationDeliveryJob = Effect.gen(function*() {
  const repo = yield* NotificationsRepo
  const mail = yield* MailSender
  const sms = yield* SmsSender
  const noticeLinks = yield* AppLinksConfig
  yield* Effect.logInfo(
    Option.isSome(noticeLinks)
      ? "links in messages: the learning app (APP_URL)"
      : "links in messages: none (set APP_URL to link emails and texts to the learning app)"
  )

  const send = (row: StoredNotification): Effect.Effect<Delivered, DeliveryFailed> => {
    const notice = decodeStoredNotice(row.notice)
    if (Either.isLeft(notice)) return Effect.fail(permanent(`the stored notice cannot be read: ${notice.left.message}`))
    return row.channel === "email"
      ? mail.send({ id: row.id, to: row.recipient, toName: row.recipientName, ...renderEmail(notice.right, row.recipientName, noticeLinks) })
      : sms.send({ id: row.id, to: row.recipient, body: renderText(notice.right, noticeLinks) })
  }

  const deliver = (ref: NotificationRef, row: StoredNotification) => {
    const provider = row.channel === "email" ? mail.provider : sms.provider
    return send(row).pipe(
      Effect.matchEffect({
        onSuccess: (receipt) =>
          repo.settle(ref, { outcome: "sent", status: "SENT", provider, providerMessageId: receipt.providerMessageId }).pipe(
            Effect.retry(recordRetries),
            Effect.zipRight(Effect.logInfo("notification sent"))
          ),
        onFailure: (failure) =>
          failure.retryable
            ? repo.settle(ref, { outcome: "retryable", provider, error: failure.reason }).pipe(
              Effect.zipRight(Effect.fail(new JobFailure({ reason: failure.reason })))
            )
            : repo.settle(ref, { outcome: "permanent", status: "FAILED", provider, error: failure.reason }).pipe(
              Effect.zipRight(Effect.logWarning("notification refused for good").pipe(Effect.annotateLogs({ reason: failure.reason })))
            )
      }),
      Effect.annotateLogs({ channel: row.channel, provider }),
      Effect.uninterruptible
    )
  }

  const run = (ref: NotificationRef) =>
    Effect.gen(function*() {
      const found = yield* repo.load(ref)
      if (Option.isNone(found)) return yield* Effect.logWarning("notification not found; nothing to deliver")
      const row = found.value
      if (row.status !== "PENDING") return yield* Effect.logInfo(`notification already ${row.status}; nothing to do`)
      if (!row.personActive) {
        yield* repo.settle(ref, { outcome: "skipped", status: "SKIPPED", provider: null, error: "the person was deactivated" })
        return yield* Effect.logInfo("notification skipped: the person was deactivated")
      }
      yield* deliver(ref, row)
    }).pipe(failJobOnSqlError)

  const handler: JobHandler<never> = {
    kind: "notification.deliver",
    annotations: (job) => ({ notificationId: job.subjectId }),
    run: (job) => run({ orgId: job.orgId, id: job.subjectId }),
    onFailed: (job, reason) => repo.giveUp({ orgId: job.orgId, id: job.subjectId }, reason)
  }
  return handler
}).pipe(Effect.provide(NotificationsRepo.Default))
