import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Logger, LogLevel } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { ClaimedJob } from "../src/jobs/repo.js"
import { webhookBatchJob } from "../src/webhooks/deliver-batch-job.js"
import { WEBHOOK_DELIVERY_ATTEMPTS } from "../src/webhooks/schedule.js"
import { webhookReceiver } from "../../adapters/test/support/webhook-receiver.js"
import { createEndpoint, deliveriesOf, emitEnrollments, importWebhookOrg, runFanouts, settleAllJobs, webhookJobsOf, webhookServices } from "./support/webhooks.js"

const BASE_MS = 1_000

const TestLayer = webhookServices().pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
)

/** The act's batch job for its endpoint, as a worker holds it (claimed, attempt 1). */
const batchOf = (orgId: string) =>
  Effect.gen(function*() {
    yield* runFanouts
    const [job] = yield* webhookJobsOf(orgId, "webhook.deliver-batch")
    expect(job).toBeDefined()
    const [row] = yield* (yield* SqlClient.SqlClient)<{ id: string }>`
      SELECT id FROM jobs WHERE org_id = ${orgId} AND kind = 'webhook.deliver-batch' AND subject_id = ${job!.subject_id}`
    return { id: row!.id, orgId, kind: "webhook.deliver-batch", subjectId: job!.subject_id, attempt: 1, maxAttempts: 5 } as ClaimedJob
  }).pipe(Effect.orDie)

const retriesOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ subject_id: string; attempts: number; max_attempts: number; due_in_ms: number }>`
      SELECT subject_id, attempts, max_attempts, (extract(epoch FROM run_after - now()) * 1000)::float8 AS due_in_ms
      FROM jobs WHERE org_id = ${orgId} AND kind = 'webhook.deliver' ORDER BY subject_id`).pipe(Effect.orDie)

// Real time: a real receiver, real POSTs.
layer(TestLayer, { excludeTestServices: true })("a batch's first attempts (the webhook.deliver-batch job)", (it) => {
  it.scoped("sends each delivery once, in feed order, and records every outcome: a 2xx SUCCEEDED, a failure left to a job of its own with its first attempt counted", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      receiver.answerWith((n) => (n === 2 ? { status: 503, body: "later" } : { status: 200 }))
      const org = yield* importWebhookOrg("Batch Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 5)
      const job = yield* batchOf(org.orgId)
      yield* (yield* webhookBatchJob({ retryBaseMs: BASE_MS })).run(job)

      const rows = yield* deliveriesOf(org.orgId)
      expect(receiver.ids()).toEqual(rows.map((row) => row.event_id))
      expect(rows.map((row) => [row.status, row.attempts, row.response_status])).toEqual([
        ["SUCCEEDED", 1, 200],
        ["SUCCEEDED", 1, 200],
        ["PENDING", 1, 503],
        ["SUCCEEDED", 1, 200],
        ["SUCCEEDED", 1, 200]
      ])
      expect(rows[2]).toMatchObject({ response_body: "later", error: "answered 503" })
      const [retry, ...others] = yield* retriesOf(org.orgId)
      expect(others).toEqual([])
      expect(retry).toMatchObject({ subject_id: rows[2]!.id, attempts: 1, max_attempts: WEBHOOK_DELIVERY_ATTEMPTS })
      expect(retry!.due_in_ms).toBeGreaterThan(BASE_MS - 5_000)
      expect(retry!.due_in_ms).toBeLessThanOrEqual(BASE_MS)
      expect(rows[2]!.next_in_ms).toBeLessThanOrEqual(BASE_MS)
    }))

  it.scoped("run again after a crash, a batch sends only the deliveries it had not recorded, under the same webhook-id", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* webhookReceiver()
      const org = yield* importWebhookOrg("Batch Again Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 4)
      const job = yield* batchOf(org.orgId)
      const handler = yield* webhookBatchJob({ retryBaseMs: BASE_MS })
      yield* handler.run(job)
      expect(receiver.received).toHaveLength(4)
      // As if the process died after the last POST and before the record.
      const last = (yield* deliveriesOf(org.orgId))[3]!
      yield* sql`UPDATE webhook_deliveries SET status = 'PENDING', attempts = 0, delivered_at = NULL WHERE id = ${last.id}`
      yield* handler.run({ ...job, attempt: 2 })
      expect(receiver.ids()).toEqual([...(yield* deliveriesOf(org.orgId)).map((row) => row.event_id), last.event_id])
      expect((yield* deliveriesOf(org.orgId)).every((row) => row.status === "SUCCEEDED")).toBe(true)
    }))

  it.scoped("interrupted mid-batch (a shutdown), it waits for the POST in flight, records what it sent, and leaves the rest to its next run", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 204, delayMs: 150 }))
      const org = yield* importWebhookOrg("Batch Interrupted Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 8)
      const job = yield* batchOf(org.orgId)
      const handler = yield* webhookBatchJob({ retryBaseMs: BASE_MS })
      const running = yield* Effect.fork(handler.run(job))
      while (receiver.received.length < 2) yield* Effect.sleep(Duration.millis(10))
      yield* Fiber.interrupt(running)

      const sent = receiver.received.length
      expect(sent).toBeLessThan(8)
      const rows = yield* deliveriesOf(org.orgId)
      expect(rows.slice(0, sent).map((row) => [row.status, row.attempts])).toEqual(rows.slice(0, sent).map(() => ["SUCCEEDED", 1]))
      expect(rows.slice(sent).map((row) => [row.status, row.attempts])).toEqual(rows.slice(sent).map(() => ["PENDING", 0]))

      receiver.answerWith(() => ({ status: 204 }))
      yield* handler.run({ ...job, attempt: 2 })
      expect(receiver.ids()).toEqual((yield* deliveriesOf(org.orgId)).map((row) => row.event_id))
    }))

  it.scoped("out of attempts, a batch hands each delivery it never tried a job of its own", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* webhookReceiver()
      const org = yield* importWebhookOrg("Batch Handover Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 3)
      const job = yield* batchOf(org.orgId)
      const handler = yield* webhookBatchJob({ retryBaseMs: BASE_MS })
      // One of the three was tried (its own job has it); the other two never were.
      const tried = (yield* deliveriesOf(org.orgId))[0]!
      yield* sql`UPDATE webhook_deliveries SET attempts = 1 WHERE id = ${tried.id}`
      yield* sql.withTransaction(handler.onFailed(job, "the database refused the record"))
      const untried = (yield* deliveriesOf(org.orgId)).slice(1).map((row) => row.id)
      expect((yield* retriesOf(org.orgId)).map((retry) => [retry.subject_id, retry.attempts])).toEqual(untried.sort().map((id) => [id, 0]))
      expect(receiver.received).toEqual([])
    }))
})
