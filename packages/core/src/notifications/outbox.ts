import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"
import { JobsRepo } from "../jobs/repo.js"

/**
 * Delivery tries a notification this many times. With the default first
 * retry after 5 s (WORKER_RETRY_BASE_MS), doubling, the last attempt comes
 * about ten minutes after the first: a mail server or SMS provider that is
 * down for a few minutes loses nothing.
 */
export const DELIVERY_ATTEMPTS = 8

export interface TellInput {
  readonly orgId: OrganizationId
  /** The people the act reached; anyone not an ACTIVE person of the organization is passed over. */
  readonly userIds: ReadonlyArray<string>
  readonly notice: Notice
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

    /**
     * One email row per ACTIVE person named and one text row per such person
     * with a phone, with the address, name and notice as they are now; then
     * their jobs. Two statements however many people (20,000 people: one
     * INSERT ... SELECT and one set-based enqueue). Runs in the caller's
     * transaction; alone, in its own. Returns the rows written.
     */
    const tell = (input: TellInput): Effect.Effect<number, SqlError> =>
      input.userIds.length === 0
        ? Effect.succeed(0)
        : sql.withTransaction(
          Effect.gen(function*() {
            const written = yield* sql<{ id: string }>`
              INSERT INTO notifications (org_id, id, user_id, channel, kind, recipient, recipient_name, notice)
              SELECT u.org_id, 'ntf_' || replace(gen_random_uuid()::text, '-', ''), u.id, c.channel, ${input.notice._tag},
                CASE c.channel WHEN 'email' THEN u.email ELSE btrim(u.phone) END, u.name, ${JSON.stringify(input.notice)}::jsonb
              FROM users u
              CROSS JOIN (VALUES ('email'), ('sms')) AS c (channel)
              WHERE u.org_id = ${input.orgId} AND u.id = ANY(${[...input.userIds]}::text[]) AND u.status = 'ACTIVE'
                AND (c.channel = 'email' OR coalesce(btrim(u.phone), '') <> '')
              RETURNING id`
            yield* jobs.enqueueMany({
              orgId: input.orgId,
              kind: "notification.deliver",
              subjectIds: written.map((row) => row.id),
              maxAttempts: DELIVERY_ATTEMPTS
            })
            return written.length
          })
        )

    return { tell } as const
  }),
  dependencies: [JobsRepo.Default]
}) {}
