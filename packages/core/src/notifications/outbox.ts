import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"
import { JobsRepo } from "../jobs/repo.js"
import { type Channel, NotificationsRepo } from "./repo.js"

/**
 * Delivery tries a notification this many times. With the default first
 * retry after 5 s (WORKER_RETRY_BASE_MS), doubling, the last attempt comes
 * about ten minutes after the first: a mail server or SMS provider that is
 * down for a few minutes loses nothing.
 */
export const DELIVERY_ATTEMPTS = 8

interface TellInput {
  readonly orgId: OrganizationId
  /** The people the act reached; anyone not an ACTIVE person of the organization is passed over. */
  readonly userIds: ReadonlyArray<string>
  readonly notice: Notice
  /** Where to tell them (default: by email, and by text to those with a phone). */
  readonly channels?: ReadonlyArray<Channel>
}

/**
 * The notifications outbox (docs/domain.md, Notifications): an act tells
 * people by writing outbox rows in its own transaction, and a
 * "notification.deliver" job per row; the workers deliver later
 * (delivery.ts). So a message exists exactly when the act committed, and
 * an act rolled back tells nobody.
 */
export class NotificationOutbox extends Effect.Service<NotificationOutbox>()("@tks/core/NotificationOutbox", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* JobsRepo
    const notifications = yield* NotificationsRepo

    /**
     * The outbox rows of the people named (NotificationsRepo.write), then
     * their jobs. Two statements however many people (20,000 people: one
     * INSERT ... SELECT and one set-based enqueue). Runs in the caller's
     * transaction; alone, in its own. Returns the rows written.
     */
    const tell = (input: TellInput): Effect.Effect<number, SqlError> =>
      input.userIds.length === 0
        ? Effect.succeed(0)
        : sql.withTransaction(
          Effect.gen(function*() {
            const written = yield* notifications.write(input.orgId, input.userIds, input.notice, input.channels)
            yield* jobs.enqueueMany({
              orgId: input.orgId,
              kind: "notification.deliver",
              subjectIds: written,
              maxAttempts: DELIVERY_ATTEMPTS
            })
            return written.length
          })
        )

    return { tell } as const
  }),
  dependencies: [JobsRepo.Default, NotificationsRepo.Default]
}) {}
