import type { SqlError } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"

/**
 * STAND-IN for the notifications outbox that branch wt/notify builds, with
 * the interface the lead fixed (BRIEF-training.md), so the assigning acts
 * can be written against it. Merging wt/notify replaces this file whole.
 *
 * tell: writes, in the caller's transaction, one email row per active person
 * and one text row per active person with a phone, and enqueues a
 * "notification.deliver" job for each row; returns the rows written.
 */
export class NotificationOutbox extends Effect.Service<NotificationOutbox>()("@tks/core/NotificationOutbox", {
  succeed: {
    tell: (_input: {
      readonly orgId: OrganizationId
      readonly userIds: ReadonlyArray<string>
      readonly notice: Notice
    }): Effect.Effect<number, SqlError.SqlError> => Effect.succeed(0)
  }
}) {}
