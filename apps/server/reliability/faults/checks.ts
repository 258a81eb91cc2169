import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { acknowledged, type Write } from "./load.js"

/** What one assignment request left: its enrollment, its obligation, and its outbox rows. */
const effectsOf = (orgId: string, write: Write) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ enrollments: number; obligations: number; notifications: number }>`
      SELECT
        (SELECT count(*)::int FROM enrollments WHERE org_id = ${orgId} AND lesson_id = ${write.lessonId} AND user_id = ${write.userId}) AS enrollments,
        (SELECT count(*)::int FROM obligations WHERE org_id = ${orgId} AND item_type = 'lesson' AND item_id = ${write.lessonId} AND user_id = ${write.userId}) AS obligations,
        (SELECT count(*)::int FROM notifications WHERE org_id = ${orgId} AND user_id = ${write.userId} AND kind = 'LessonAssigned' AND notice->>'lessonId' = ${write.lessonId}) AS notifications`
  ).pipe(Effect.map((rows) => rows[0]!))

const documentOf = (orgId: string, title: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; processing_status: string }>`
      SELECT id, processing_status FROM content WHERE org_id = ${orgId} AND title = ${title}`
  )

export interface Verdict {
  readonly checked: number
  /** Acknowledged writes not found afterwards. */
  readonly lost: ReadonlyArray<string>
  /** Writes with part of their effects. */
  readonly halfApplied: ReadonlyArray<string>
  /** Acknowledged documents whose processing never finished. */
  readonly unfinished: ReadonlyArray<string>
}

/** Reads back every write of the load: each acknowledged one whole, each other one whole or absent. */
export const verify = (orgId: string, writes: ReadonlyArray<Write>) =>
  Effect.gen(function*() {
    const lost: Array<string> = []
    const halfApplied: Array<string> = []
    const unfinished: Array<string> = []
    for (const write of writes) {
      const label = `${write.kind} ${write.kind === "assignment" ? `${write.lessonId}/${write.userId}` : write.title} (answered ${write.status})`
      if (write.kind === "assignment") {
        const effects = yield* effectsOf(orgId, write)
        const counts = [effects.enrollments, effects.obligations, effects.notifications]
        const whole = counts.every((count) => count >= 1) && effects.enrollments === 1
        const absent = counts.every((count) => count === 0)
        if (acknowledged(write) && !whole) lost.push(`${label}: ${JSON.stringify(effects)}`)
        if (!acknowledged(write) && !whole && !absent) halfApplied.push(`${label}: ${JSON.stringify(effects)}`)
      } else {
        const rows = yield* documentOf(orgId, write.title)
        if (rows.length > 1) halfApplied.push(`${label}: ${rows.length} documents`)
        if (acknowledged(write)) {
          if (rows.length === 0) lost.push(label)
          else if (rows[0]!.processing_status !== "COMPLETED") unfinished.push(`${label}: ${rows[0]!.processing_status}`)
        }
      }
    }
    return { checked: writes.length, lost, halfApplied, unfinished } satisfies Verdict
  })

/** Notifications still to be delivered, and deliveries recorded as sent more than once. */
export const outboxState = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ pending: number; twiceSent: number; sent: number }>`
      SELECT
        (SELECT count(*)::int FROM notifications WHERE org_id = ${orgId} AND status = 'PENDING') AS pending,
        (SELECT count(*)::int FROM notifications WHERE org_id = ${orgId} AND status = 'SENT') AS sent,
        (SELECT count(*)::int FROM (SELECT notification_id FROM notification_attempts WHERE org_id = ${orgId} AND outcome = 'sent'
          GROUP BY notification_id HAVING count(*) > 1) AS twice) AS "twiceSent"`
  ).pipe(Effect.map((rows) => rows[0]!))

/** Content still waiting for its processing job. */
export const pendingDocuments = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ count: number }>`
      SELECT count(*)::int AS count FROM content WHERE org_id = ${orgId} AND processing_status IN ('PENDING', 'PROCESSING')`
  ).pipe(Effect.map((rows) => rows[0]!.count))
