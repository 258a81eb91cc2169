import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { acknowledged, type Write } from "./load.js"

interface Effects {
  readonly enrollments: number
  readonly obligations: number
  readonly notifications: number
}

const pairKey = (lessonId: string, userId: string) => `${lessonId}/${userId}`

/**
 * What the assignment requests left, per lesson and person: enrollments,
 * obligations and outbox rows. Three grouped reads for the whole run (a read
 * per write was the full run's slowest part: thousands of them on the
 * embedded database).
 */
const assignmentEffects = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [enrollments, obligations, notifications] = yield* Effect.all([
      sql<{ lesson_id: string; user_id: string; count: number }>`
        SELECT lesson_id, user_id, count(*)::int AS count FROM enrollments WHERE org_id = ${orgId} GROUP BY lesson_id, user_id`,
      sql<{ lesson_id: string; user_id: string; count: number }>`
        SELECT item_id AS lesson_id, user_id, count(*)::int AS count FROM obligations
        WHERE org_id = ${orgId} AND item_type = 'lesson' GROUP BY item_id, user_id`,
      sql<{ lesson_id: string; user_id: string; count: number }>`
        SELECT notice->>'lessonId' AS lesson_id, user_id, count(*)::int AS count FROM notifications
        WHERE org_id = ${orgId} AND kind = 'LessonAssigned' GROUP BY notice->>'lessonId', user_id`
    ])
    const countsOf = (rows: ReadonlyArray<{ lesson_id: string; user_id: string; count: number }>) =>
      new Map(rows.map((row) => [pairKey(row.lesson_id, row.user_id), row.count]))
    const [e, o, n] = [countsOf(enrollments), countsOf(obligations), countsOf(notifications)]
    return (lessonId: string, userId: string): Effects => {
      const key = pairKey(lessonId, userId)
      return { enrollments: e.get(key) ?? 0, obligations: o.get(key) ?? 0, notifications: n.get(key) ?? 0 }
    }
  })

/** The documents of the run, by title: their ids and processing status. */
const documentsByTitle = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: string; title: string; processing_status: string }>`
      SELECT id, title, processing_status FROM content WHERE org_id = ${orgId}`
    const byTitle = new Map<string, Array<{ id: string; processing_status: string }>>()
    for (const row of rows) byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row])
    return (title: string) => byTitle.get(title) ?? []
  })

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
    const effectsOf = yield* assignmentEffects(orgId)
    const documentsOf = yield* documentsByTitle(orgId)
    const lost: Array<string> = []
    const halfApplied: Array<string> = []
    const unfinished: Array<string> = []
    for (const write of writes) {
      const label = `${write.kind} ${write.kind === "assignment" ? `${write.lessonId}/${write.userId}` : write.title} (answered ${write.status})`
      if (write.kind === "assignment") {
        const effects = effectsOf(write.lessonId, write.userId)
        const counts = [effects.enrollments, effects.obligations, effects.notifications]
        const whole = counts.every((count) => count >= 1) && effects.enrollments === 1
        const absent = counts.every((count) => count === 0)
        if (acknowledged(write) && !whole) lost.push(`${label}: ${JSON.stringify(effects)}`)
        if (!acknowledged(write) && !whole && !absent) halfApplied.push(`${label}: ${JSON.stringify(effects)}`)
      } else {
        const rows = documentsOf(write.title)
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
