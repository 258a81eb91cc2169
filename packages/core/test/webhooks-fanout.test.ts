import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { WebhookFanout } from "../src/webhooks/fanout.js"
import { WEBHOOK_BATCH_SIZE } from "../src/webhooks/fanout-job.js"
import { WebhookEndpoints } from "../src/webhooks/service.js"
import {
  createEndpoint,
  deliveriesOf,
  emitEnrollments,
  importWebhookOrg,
  ownerAccess,
  runFanouts,
  webhookJobsOf,
  webhookServices
} from "./support/webhooks.js"

const TestLayer = webhookServices().pipe(Layer.provideMerge(TestDatabaseLive))

const hook = (path: string) => `http://127.0.0.1:9/${path}`

layer(TestLayer)("WebhookFanout.fanOut", (it) => {
  it.effect("each event goes to every enabled endpoint subscribed to its type, once, with its id and type, after the act; one batch job per endpoint", () =>
    Effect.gen(function*() {
      const org = yield* importWebhookOrg("Fanout Org")
      const both = yield* createEndpoint(org.orgId, { url: hook("both"), eventTypes: ["enrollment.created", "enrollment.completed"] })
      const created = yield* createEndpoint(org.orgId, { url: hook("created"), eventTypes: ["enrollment.created", "enrollment.created"] })
      const completed = yield* createEndpoint(org.orgId, { url: hook("completed"), eventTypes: ["enrollment.completed"] })
      const disabled = yield* createEndpoint(org.orgId, { url: hook("disabled"), eventTypes: ["enrollment.created"] })
      yield* (yield* WebhookEndpoints).update(ownerAccess(org.orgId, "update"), disabled.id as never, { disabled: true })
      // Another organization's endpoint on the same type hears nothing of this one's events.
      const other = yield* importWebhookOrg("Fanout Other Org")
      yield* createEndpoint(other.orgId, { url: hook("other"), eventTypes: ["enrollment.created"] })

      // The act queues one fan-out job per subscribed endpoint, and writes no delivery itself.
      const { positions, fanouts } = yield* emitEnrollments(org, 3)
      expect(fanouts).toBe(2)
      const queued = yield* webhookJobsOf(org.orgId, "webhook.fanout")
      expect(queued.map((job) => job.subject_id.split("@")[0]).sort()).toEqual([both.id, created.id].sort())
      expect(yield* deliveriesOf(org.orgId)).toEqual([])

      // Run (twice: a repeated run makes nothing twice), they write the deliveries and a batch job for each endpoint's.
      yield* runFanouts
      yield* (yield* SqlClient.SqlClient)`UPDATE jobs SET status = 'PENDING' WHERE org_id = ${org.orgId} AND kind = 'webhook.fanout'`
      yield* runFanouts
      const rows = yield* deliveriesOf(org.orgId)
      expect(rows.map((row) => [row.event_position, row.endpoint_id]).sort()).toEqual(
        positions.flatMap((position) => [[position, both.id], [position, created.id]]).sort()
      )
      for (const row of rows) {
        expect(row).toMatchObject({ event_type: "enrollment.created", status: "PENDING", attempts: 0, response_status: null })
        expect(row.id).toMatch(/^whd_[0-9a-hjkmnp-tv-z]{20}$/)
        expect(row.event_id).toMatch(/^evt_/)
      }
      // The same event goes to both endpoints under its one id (the webhook-id).
      expect(new Set(rows.map((row) => row.event_id)).size).toBe(3)
      const sorted = [...positions].sort((a, b) => Number(a) - Number(b))
      const span = `${sorted[0]}-${sorted[2]}`
      const batches = yield* webhookJobsOf(org.orgId, "webhook.deliver-batch")
      expect(batches.map((job) => job.subject_id).sort()).toEqual([`${both.id}@${span}`, `${created.id}@${span}`].sort())
      for (const job of batches) expect(job).toMatchObject({ status: "PENDING", attempts: 0 })
      expect(yield* webhookJobsOf(org.orgId)).toEqual([])
      expect(yield* deliveriesOf(other.orgId)).toEqual([])

      expect((yield* emitEnrollments(org, 1, "enrollment.completed")).fanouts).toBe(2)
      yield* runFanouts
      const afterCompletion = yield* deliveriesOf(org.orgId)
      expect(afterCompletion.filter((row) => row.event_type === "enrollment.completed").map((row) => row.endpoint_id).sort()).toEqual(
        [both.id, completed.id].sort()
      )
    }))

  it.effect("an endpoint disabled between the act and its fan-out gets nothing", () =>
    Effect.gen(function*() {
      const org = yield* importWebhookOrg("Fanout Late Org")
      const endpoint = yield* createEndpoint(org.orgId, { url: hook("late"), eventTypes: ["enrollment.created"] })
      expect((yield* emitEnrollments(org, 2)).fanouts).toBe(1)
      yield* (yield* WebhookEndpoints).update(ownerAccess(org.orgId, "update"), endpoint.id as never, { disabled: true })
      yield* runFanouts
      expect(yield* deliveriesOf(org.orgId)).toEqual([])
      expect(yield* webhookJobsOf(org.orgId)).toEqual([])
    }))

  it.effect("an organization with no enabled endpoint gets no delivery and no job; no positions is nothing at all", () =>
    Effect.gen(function*() {
      const org = yield* importWebhookOrg("Fanout Quiet Org")
      expect((yield* emitEnrollments(org, 5)).fanouts).toBe(0)
      const endpoint = yield* createEndpoint(org.orgId, { url: hook("off"), eventTypes: ["enrollment.created"] })
      yield* (yield* WebhookEndpoints).update(ownerAccess(org.orgId, "update"), endpoint.id as never, { disabled: true })
      expect((yield* emitEnrollments(org, 5)).fanouts).toBe(0)
      // Subscribed to other types only: no fan-out either.
      yield* createEndpoint(org.orgId, { url: hook("elsewhere"), eventTypes: ["enrollment.completed"] })
      expect((yield* emitEnrollments(org, 5)).fanouts).toBe(0)
      expect(yield* (yield* WebhookFanout).fanOut(org.orgId, [], ["enrollment.created"])).toBe(0)
      expect(yield* deliveriesOf(org.orgId)).toEqual([])
      expect(yield* webhookJobsOf(org.orgId, "webhook.fanout")).toEqual([])
    }))

  it.effect("in the act's transaction: an act rolled back leaves no fan-out, no delivery and no job", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const org = yield* importWebhookOrg("Fanout Rollback Org")
      yield* createEndpoint(org.orgId, { url: hook("rollback"), eventTypes: ["enrollment.created"] })
      const exit = yield* Effect.exit(sql.withTransaction(Effect.zipRight(emitEnrollments(org, 2), Effect.fail("the act failed"))))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* deliveriesOf(org.orgId)).toEqual([])
      expect(yield* webhookJobsOf(org.orgId, "webhook.fanout")).toEqual([])
    }))

  it.effect("an act emitting 20,000 events to one subscribed endpoint queues one fan-out job in its transaction; the fan-out writes 20,000 deliveries and queues them in batches of 50, each delivery in one", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const org = yield* importWebhookOrg("Fanout Scale Org")
      yield* createEndpoint(org.orgId, { url: hook("scale"), eventTypes: ["enrollment.created"] })
      const { fanouts, positions } = yield* emitEnrollments(org, 20_000)
      expect(fanouts).toBe(1)
      expect(yield* webhookJobsOf(org.orgId, "webhook.fanout")).toHaveLength(1)
      yield* runFanouts
      const [counts] = yield* sql<{ deliveries: number; events: number; jobs: number }>`
        SELECT (SELECT count(DISTINCT event_position)::int FROM webhook_deliveries WHERE org_id = ${org.orgId}) AS deliveries,
          (SELECT count(*)::int FROM events WHERE org_id = ${org.orgId}) AS events,
          (SELECT count(*)::int FROM jobs WHERE org_id = ${org.orgId} AND kind = 'webhook.deliver-batch') AS jobs`
      expect(counts).toEqual({ deliveries: 20_000, events: 20_000, jobs: 20_000 / WEBHOOK_BATCH_SIZE })
      expect(positions).toHaveLength(20_000)
      // Each delivery falls in exactly one batch's span, and no batch holds more than its size.
      const [cover] = yield* sql<{ covered: number; twice: number; fullest: number }>`
        WITH span AS (
          SELECT split_part(split_part(subject_id, '@', 2), '-', 1)::bigint AS first, split_part(subject_id, '-', 2)::bigint AS last, id
          FROM jobs WHERE org_id = ${org.orgId} AND kind = 'webhook.deliver-batch'
        ), hits AS (
          SELECT d.id, span.id AS job FROM webhook_deliveries d JOIN span ON d.event_position BETWEEN span.first AND span.last
          WHERE d.org_id = ${org.orgId}
        )
        SELECT (SELECT count(DISTINCT id)::int FROM hits) AS covered,
          (SELECT count(*)::int FROM (SELECT id FROM hits GROUP BY id HAVING count(*) > 1) t) AS twice,
          (SELECT max(n)::int FROM (SELECT count(*) AS n FROM hits GROUP BY job) t) AS fullest`
      expect(cover).toEqual({ covered: 20_000, twice: 0, fullest: WEBHOOK_BATCH_SIZE })
    }), 120_000)
})
