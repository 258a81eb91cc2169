import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { OrganizationId } from "@tks/domain/ids"
import type { Notice } from "@tks/domain/notice"
import { FixtureImporter } from "../../src/org-import/importer.js"

/**
 * A small organization for notification tests: Ava (a phone), Ben (no
 * phone), Cleo (a blank phone), Dora (deactivated, with a phone).
 */
export const importCrew = (name: string) =>
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const result = yield* importer.importOrganization({
      organization: { name },
      people: [
        { key: "ava", name: "Ava Thompson", email: "ava@crew.test", role: "owner", phone: "+15550100001" },
        { key: "ben", name: "Ben Okafor", email: "ben@crew.test", role: "viewer" },
        { key: "cleo", name: "Cleo Park", email: "cleo@crew.test", role: "viewer", phone: "  " },
        { key: "dora", name: "Dora Departed", email: "dora@crew.test", role: "viewer", status: "DEACTIVATED", phone: "+15550100004" }
      ]
    })
    const people = result.ids.people as Readonly<Record<"ava" | "ben" | "cleo" | "dora", string>>
    return { orgId: OrganizationId.make(result.organizationId), people }
  }).pipe(Effect.orDie)

export const lessonAssigned: Notice = {
  _tag: "LessonAssigned",
  lessonId: "les_forklift",
  title: "Forklift safety",
  dueDate: "2026-12-01T00:00:00.000Z"
}

export interface NotificationRecord {
  readonly id: string
  readonly user_id: string
  readonly channel: string
  readonly kind: string
  readonly recipient: string
  readonly recipient_name: string
  readonly notice: unknown
  readonly status: string
  readonly provider_message_id: string | null
  readonly error: string | null
  readonly sent: boolean
}

/** An organization's notifications, by person and channel. */
export const notificationsOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<NotificationRecord>`
      SELECT id, user_id, channel, kind, recipient, recipient_name, notice, status, provider_message_id, error,
        sent_at IS NOT NULL AS sent
      FROM notifications WHERE org_id = ${orgId} ORDER BY recipient_name, channel`).pipe(Effect.orDie)

export const notificationOf = (orgId: string, id: string) =>
  Effect.map(notificationsOf(orgId), (rows) => rows.find((row) => row.id === id)!)

/** The attempts recorded for a notification, in order. */
export const attemptsOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ attempt: number; outcome: string; provider: string | null; error: string | null }>`
      SELECT attempt, outcome, provider, error FROM notification_attempts WHERE notification_id = ${id} ORDER BY attempt`).pipe(
      Effect.orDie
    )

/** The delivery jobs of an organization: subject and status. */
export const deliveryJobsOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; subject_id: string; status: string; attempts: number; max_attempts: number }>`
      SELECT id, subject_id, status, attempts, max_attempts FROM jobs
      WHERE org_id = ${orgId} AND kind = 'notification.deliver' ORDER BY subject_id, created_at`).pipe(Effect.orDie)
