import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"
import { newIds } from "../common/ids.js"

export type Channel = "email" | "sms"
type NotificationStatus = "PENDING" | "SENT" | "SKIPPED" | "FAILED"
/** What came of one attempt (notification_attempts.outcome). */
type AttemptOutcome = "sent" | "retryable" | "permanent" | "skipped"

export interface NotificationRef {
  readonly orgId: OrganizationId
  readonly id: string
}

/** A notification as delivery needs it, with the person's status now. */
export interface StoredNotification {
  readonly id: string
  readonly channel: Channel
  readonly recipient: string
  readonly recipientName: string
  /** The notice as stored (jsonb); `decodeStoredNotice` reads it. */
  readonly notice: unknown
  readonly status: NotificationStatus
  readonly personActive: boolean
}

/** How an attempt ends: recorded always; `status` set only on a notification still PENDING. */
interface Settlement {
  readonly outcome: AttemptOutcome
  readonly status?: Exclude<NotificationStatus, "PENDING">
  readonly provider: string | null
  readonly providerMessageId?: string | null
  readonly error?: string | null
}

/**
 * The outbox rows: written for the people an act tells (outbox.ts), read one
 * for delivery, record each attempt and the final status. Every status
 * change is conditional on the row still being PENDING, so a notification
 * is settled once however many workers reach it.
 */
export class NotificationsRepo extends Effect.Service<NotificationsRepo>()("@tks/core/NotificationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * One email row per ACTIVE person of `userIds` and one text row per such
     * person with a phone (of the `channels` asked for), with the address,
     * name and notice as they are now, in one INSERT ... SELECT however many
     * people. Each person comes with two new ids, one per channel; a text's
     * id goes unused when they have no phone. Returns the new ids.
     */
    const write = (
      orgId: OrganizationId,
      userIds: ReadonlyArray<string>,
      notice: Notice,
      channels: ReadonlyArray<Channel> = ["email", "sms"]
    ) => {
      const people = [...new Set(userIds)]
      const ids = newIds("notification", 2 * people.length)
      return sql<{ id: string }>`
        INSERT INTO notifications (org_id, id, user_id, channel, kind, recipient, recipient_name, notice)
        SELECT u.org_id, CASE c.channel WHEN 'email' THEN p.email_id ELSE p.sms_id END, u.id, c.channel, ${notice._tag},
          CASE c.channel WHEN 'email' THEN u.email ELSE btrim(u.phone) END, u.name, ${JSON.stringify(notice)}::jsonb
        FROM unnest(${people}::text[], ${ids.slice(0, people.length)}::text[], ${ids.slice(people.length)}::text[])
          AS p(user_id, email_id, sms_id)
        JOIN users u ON u.org_id = ${orgId} AND u.id = p.user_id
        CROSS JOIN unnest(${[...channels]}::text[]) AS c (channel)
        WHERE u.status = 'ACTIVE' AND (c.channel = 'email' OR coalesce(btrim(u.phone), '') <> '')
        RETURNING id`.pipe(Effect.map((rows) => rows.map((row) => row.id)))
    }

    const load = (ref: NotificationRef) =>
      sql<StoredNotification>`
        SELECT n.id, n.channel, n.recipient, n.recipient_name AS "recipientName", n.notice, n.status,
          u.status = 'ACTIVE' AS "personActive"
        FROM notifications n JOIN users u ON u.org_id = n.org_id AND u.id = n.user_id
        WHERE n.org_id = ${ref.orgId} AND n.id = ${ref.id}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

    /**
     * Records the attempt (numbered after the ones before it) and, when the
     * attempt ends the notification, its status: one statement, so the
     * record and the status never disagree. An ending attempt is recorded
     * only by the statement that moves the row out of PENDING: the record of
     * a send is retried when the database's answer is lost, and a retry of a
     * statement that did commit must not record the send a second time.
     */
    const settle = (ref: NotificationRef, settlement: Settlement) => {
      const nextAttempt = sql`
        SELECT coalesce(max(attempt), 0) + 1 FROM notification_attempts WHERE org_id = ${ref.orgId} AND notification_id = ${ref.id}`
      if (settlement.status === undefined) {
        return sql`
          INSERT INTO notification_attempts (org_id, notification_id, attempt, outcome, provider, error)
          VALUES (${ref.orgId}, ${ref.id}, (${nextAttempt}), ${settlement.outcome}, ${settlement.provider}, ${settlement.error ?? null})`.pipe(
            Effect.asVoid
          )
      }
      return sql`
        WITH settled AS (
          UPDATE notifications SET status = ${settlement.status},
            sent_at = CASE WHEN ${settlement.status} = 'SENT' THEN now() END,
            provider_message_id = ${settlement.providerMessageId ?? null}, error = ${settlement.error ?? null}, finished_at = now()
          WHERE org_id = ${ref.orgId} AND id = ${ref.id} AND status = 'PENDING'
          RETURNING org_id, id
        )
        INSERT INTO notification_attempts (org_id, notification_id, attempt, outcome, provider, error)
        SELECT org_id, id, (${nextAttempt}), ${settlement.outcome}, ${settlement.provider}, ${settlement.error ?? null}
        FROM settled`.pipe(Effect.asVoid)
    }

    /** Out of attempts (the job failed for good): FAILED with the last reason, unless already settled. */
    const giveUp = (ref: NotificationRef, reason: string) =>
      sql`
        UPDATE notifications SET status = 'FAILED', error = ${reason}, finished_at = now()
        WHERE org_id = ${ref.orgId} AND id = ${ref.id} AND status = 'PENDING'`.pipe(Effect.asVoid)

    return { write, load, settle, giveUp } as const
  })
}) {}
