import { expect } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { eventually } from "../../../../packages/core/test/support/jobs.js"
import { raw } from "./server.js"

/**
 * An act's trace as an organization admin reads it: its events through
 * GET /v1/events (each encoded through its type's schema on the way, so a
 * payload that does not fit fails here) and its audit rows through
 * GET /v1/audit-events. The feed holds an event back while a transaction
 * older than its own is open (a job's, say), so events are waited for; the
 * absence of events is read from the table, which hides nothing.
 */

/**
 * Waits until the feed shows the organization's newest stored event, so
 * that what it shows then is everything written so far and an absence means
 * something. The feed holds events back while any older transaction is open
 * on the database server (another test's, on PostgreSQL); the test's own
 * timeout bounds the wait.
 */
export const feedCaughtUp = (token: string, orgId: string) =>
  eventually(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [newest] = yield* sql<{ position: string | null }>`SELECT max(position)::text AS position FROM events WHERE org_id = ${orgId}`
    if (newest?.position == null) return true
    const response = yield* raw("GET", `/v1/events?after=${BigInt(newest.position) - 1n}&limit=1`, { token })
    expect(response.status, response.text).toBe(200)
    return response.json.data.length > 0
  }).pipe(Effect.orDie))

/** Every event of `type` in the feed (read to its end) for which `about` holds. */
export const feedEvents = (token: string, type: string, about: (event: any) => boolean = () => true) =>
  Effect.gen(function*() {
    const found: Array<any> = []
    let after = ""
    for (;;) {
      const response = yield* raw("GET", `/v1/events?type=${type}&limit=100${after}`, { token })
      expect(response.status, response.text).toBe(200)
      found.push(...response.json.data.filter(about))
      if (response.json.nextCursor === null) return found
      after = `&after=${response.json.nextCursor}`
    }
  })

/** The events of `type` about a record once the feed shows at least `count` of them. */
export const shownEvents = (token: string, type: string, about: (event: any) => boolean, count: number) =>
  Effect.gen(function*() {
    yield* eventually(Effect.map(feedEvents(token, type, about), (events) => events.length >= count))
    return yield* feedEvents(token, type, about)
  })

/** The audit rows (newest first) the filters of GET /v1/audit-events keep. */
export const auditRowsWhere = (token: string, filters: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const response = yield* raw("GET", `/v1/audit-events?${new URLSearchParams({ ...filters, limit: "100" })}`, { token })
    expect(response.status, response.text).toBe(200)
    return response.json.data as Array<any>
  })

/** The audit rows naming `target` (newest first), of one action when given. */
export const auditRows = (token: string, target: string, action?: string) =>
  auditRowsWhere(token, action === undefined ? { target } : { target, type: action })

/** The types of the stored events whose data names `id` anywhere (feed or not), sorted. */
export const storedEventsNaming = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ type: string }>`
      SELECT type FROM events WHERE position(${`"${id}"`} IN data::text) > 0 ORDER BY type`).pipe(
    Effect.map((rows) => rows.map((row) => row.type)),
    Effect.orDie
  )

/** The actions of the stored audit rows naming `id` as a target, sorted. */
export const storedAuditNaming = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string }>`SELECT action FROM audit_events WHERE ${id} = ANY(target_ids) ORDER BY action`).pipe(
    Effect.map((rows) => rows.map((row) => row.action)),
    Effect.orDie
  )
