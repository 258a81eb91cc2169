import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Logger, LogLevel } from "effect"
import { layerWebhookSender } from "@tks/adapters/webhooks/sender"
import { TestDatabaseLive } from "@tks/db/test-database"
import { JobsRepo } from "../src/jobs/repo.js"
import { type EventRow, eventWire } from "../src/journal/event-wire.js"
import { webhookBatchJob } from "../src/webhooks/deliver-batch-job.js"
import { webhookDeliveryJob } from "../src/webhooks/delivery.js"
import { WebhookEndpoints } from "../src/webhooks/service.js"
import { WEBHOOK_DELIVERY_ATTEMPTS } from "../src/webhooks/schedule.js"
import { fakeResolver } from "../../adapters/test/support/fake-resolver.js"
import { verifiedWith, webhookReceiver } from "../../adapters/test/support/webhook-receiver.js"
import {
  claimDelivery,
  type ClaimedJob,
  createEndpoint,
  deliveriesOf,
  emitEnrollments,
  importWebhookOrg,
  ownerAccess,
  runFanouts,
  sendBatches,
  settleAllJobs,
  webhookServices
} from "./support/webhooks.js"

const BASE_MS = 1_000

const TestLayer = webhookServices().pipe(
  Layer.provideMerge(TestDatabaseLive),
  // The failures and disablings these tests cause on purpose are logged.
  Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
)

const OWNER = "webhook-test"

/**
 * One attempt, as a worker makes it: the handler runs; a success completes
 * the job, a failure fails it with the handler's own retry delay (and, out
 * of attempts, gives the delivery up). Answers whether it will be retried.
 */
const attempt = (job: ClaimedJob) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* JobsRepo
    const handler = yield* webhookDeliveryJob({ retryBaseMs: BASE_MS })
    const exit = yield* Effect.exit(handler.run(job))
    if (Exit.isSuccess(exit)) {
      yield* jobs.complete(job, OWNER)
      return "completed" as const
    }
    const reason = exit.cause._tag === "Fail" ? exit.cause.error.reason : "defect"
    return yield* sql.withTransaction(
      jobs.fail(job, OWNER, reason, handler.retryInMs!(job.attempt)).pipe(
        Effect.tap((outcome) => (outcome === "failed" ? handler.onFailed(job, reason) : Effect.void))
      )
    )
  }).pipe(Effect.orDie)

const endpointOf = (orgId: string, id: string) =>
  Effect.flatMap(WebhookEndpoints, (webhooks) => webhooks.get(ownerAccess(orgId, "get"), id as never)).pipe(Effect.orDie)

const eventAt = (position: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<EventRow>`SELECT position::text AS position, id, org_id, type, occurred_at, actor, data FROM events WHERE position = ${position}`).pipe(
      Effect.map((rows) => rows[0]!),
      Effect.orDie
    )

const auditOf = (orgId: string, action: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ actor_type: string; actor_name: string | null; target_ids: ReadonlyArray<string>; changes: unknown }>`
      SELECT actor_type, actor_name, target_ids, changes FROM audit_events WHERE org_id = ${orgId} AND action = ${action}
      ORDER BY occurred_at`).pipe(Effect.orDie)

/** The "webhook.deliver" jobs of the organization: one per delivery left for another attempt. */
const retryJobsOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ subject_id: string; attempts: number; due_in_ms: number }>`
      SELECT subject_id, attempts, (extract(epoch FROM run_after - now()) * 1000)::float8 AS due_in_ms
      FROM jobs WHERE org_id = ${orgId} AND kind = 'webhook.deliver' AND status = 'PENDING' ORDER BY subject_id`).pipe(Effect.orDie)

const toldOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ recipient: string; channel: string; kind: string; notice: { url: string; reason: string } }>`
      SELECT recipient, channel, kind, notice FROM notifications WHERE org_id = ${orgId} ORDER BY recipient`).pipe(Effect.orDie)

// Real time: the receiver is a real HTTP server, and the deliveries real POSTs.
layer(TestLayer, { excludeTestServices: true })("delivering webhooks (a batch's first attempts, then each delivery's own job)", (it) => {
  it.scoped("an event is POSTed as the feed shows it, signed so the Standard Webhooks verifier accepts it; the log records the success", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 200, body: "received" }))
      const org = yield* importWebhookOrg("Deliver Org")
      const endpoint = yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      const { positions } = yield* emitEnrollments(org, 1)
      expect(yield* sendBatches(BASE_MS)).toBe(1)

      const [request] = receiver.received
      const event = eventWire(yield* eventAt(positions[0]!))
      expect(verifiedWith(endpoint.secret, request!)).toEqual(JSON.parse(JSON.stringify(event)))
      expect(request!.headers["webhook-id"]).toBe(event.id)
      const [row] = yield* deliveriesOf(org.orgId)
      expect(row).toMatchObject({ status: "SUCCEEDED", attempts: 1, response_status: 200, response_body: "received", error: null, next_in_ms: null })
      expect(yield* retryJobsOf(org.orgId)).toEqual([])
      // Run again (a takeover after the send), as its batch or as a delivery job: nothing more is sent.
      const batch = yield* webhookBatchJob({ retryBaseMs: BASE_MS })
      yield* batch.run({ id: "job_again", orgId: org.orgId, kind: "webhook.deliver-batch", subjectId: `${endpoint.id}@${positions[0]}-${positions[0]}`, attempt: 2, maxAttempts: 5 })
      const handler = yield* webhookDeliveryJob({ retryBaseMs: BASE_MS })
      yield* handler.run({ id: "job_again", orgId: org.orgId, kind: "webhook.deliver", subjectId: row!.id, attempt: 2, maxAttempts: 12 })
      expect(receiver.received).toHaveLength(1)
    }))

  it.scoped("a receiver answering 500 three times: each attempt is logged with its code and the next one is due on the schedule; then it succeeds, all under one webhook-id", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      receiver.answerWith((n) => (n < 3 ? { status: 500, body: `busy ${n + 1}` } : { status: 204 }))
      const org = yield* importWebhookOrg("Deliver Retry Org")
      const endpoint = yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 1)
      const waits = [BASE_MS, 60 * BASE_MS, 360 * BASE_MS]
      for (const [n, wait] of waits.entries()) {
        // The first attempt is its batch's; the next ones its own job's.
        if (n === 0) {
          yield* sendBatches(BASE_MS)
          const [retry] = yield* retryJobsOf(org.orgId)
          expect(retry).toMatchObject({ subject_id: (yield* deliveriesOf(org.orgId))[0]!.id, attempts: 1 })
          expect(retry!.due_in_ms).toBeGreaterThan(wait - 5_000)
          expect(retry!.due_in_ms).toBeLessThanOrEqual(wait)
        } else expect(yield* attempt(yield* claimDelivery)).toBe("retrying")
        const [row] = yield* deliveriesOf(org.orgId)
        expect(row).toMatchObject({ status: "PENDING", attempts: n + 1, response_status: 500, response_body: `busy ${n + 1}`, error: "answered 500" })
        expect(row!.next_in_ms).toBeGreaterThan(wait - 5_000)
        expect(row!.next_in_ms).toBeLessThanOrEqual(wait)
        expect((yield* endpointOf(org.orgId, endpoint.id)).failingSince).not.toBeNull()
      }
      expect(yield* attempt(yield* claimDelivery)).toBe("completed")
      const [row] = yield* deliveriesOf(org.orgId)
      expect(row).toMatchObject({ status: "SUCCEEDED", attempts: 4, response_status: 204, error: null })
      expect(new Set(receiver.ids())).toEqual(new Set([row!.event_id]))
      expect(receiver.received).toHaveLength(4)
      // A success ends the endpoint's run of failures.
      expect((yield* endpointOf(org.orgId, endpoint.id)).failingSince).toBeNull()
    }))

  it.scoped("410 Gone: the delivery fails, the endpoint is disabled with the reason, audited as the worker's act, and the admins are emailed; its other deliveries go nowhere", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 410, body: "gone" }))
      const org = yield* importWebhookOrg("Deliver Gone Org")
      const endpoint = yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 2)
      yield* sendBatches(BASE_MS)
      expect(receiver.received).toHaveLength(1)
      expect(yield* retryJobsOf(org.orgId)).toEqual([])
      const rows = yield* deliveriesOf(org.orgId)
      expect(rows.map((row) => [row.status, row.attempts, row.response_status, row.error]).sort()).toEqual([
        ["FAILED", 0, null, "the endpoint is disabled"],
        ["FAILED", 1, 410, "the endpoint answered 410 Gone"]
      ])
      expect(yield* endpointOf(org.orgId, endpoint.id)).toMatchObject({ disabled: true, disabledReason: "it answered 410 Gone" })
      expect(yield* auditOf(org.orgId, "webhook_endpoint.updated")).toEqual([
        { actor_type: "system", actor_name: "worker", target_ids: [endpoint.id], changes: { disabled: { old: false, new: true } } }
      ])
      // The active admins (owner, admin, billing admin), by email only; not the viewer, not the admin who left.
      const told = yield* toldOf(org.orgId)
      expect(told.map((row) => [row.recipient, row.channel, row.kind])).toEqual([
        ["ava@hooks.test", "email", "WebhookEndpointDisabled"],
        ["bea@hooks.test", "email", "WebhookEndpointDisabled"],
        ["ben@hooks.test", "email", "WebhookEndpointDisabled"]
      ])
      expect(told[0]!.notice).toMatchObject({ url: receiver.url(), reason: "it answered 410 Gone" })
    }))

  it.scoped("an endpoint failing for 3 days is disabled at its next failure and the admins are emailed; failing for 2 days it is only retried", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 503 }))
      const org = yield* importWebhookOrg("Deliver Failing Org")
      const endpoint = yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 1)
      const failingFor = (hours: number) =>
        sql`UPDATE webhook_endpoints SET failing_since = now() - ${hours} * interval '1 hour' WHERE id = ${endpoint.id}`
      yield* failingFor(48)
      yield* sendBatches(BASE_MS)
      expect(yield* retryJobsOf(org.orgId)).toHaveLength(1)
      expect((yield* endpointOf(org.orgId, endpoint.id)).disabled).toBe(false)
      expect(yield* toldOf(org.orgId)).toEqual([])

      yield* failingFor(72)
      expect(yield* attempt(yield* claimDelivery)).toBe("completed")
      const disabled = yield* endpointOf(org.orgId, endpoint.id)
      expect(disabled.disabled).toBe(true)
      expect(disabled.disabledReason).toMatch(/^every delivery has failed since \d{1,2} \w+ \d{4}, \d{2}:\d{2} UTC \(3 days\)$/)
      const [row] = yield* deliveriesOf(org.orgId)
      expect(row).toMatchObject({ status: "FAILED", attempts: 2, response_status: 503, error: "answered 503", next_in_ms: null })
      expect((yield* toldOf(org.orgId)).map((told) => told.recipient)).toEqual(["ava@hooks.test", "bea@hooks.test", "ben@hooks.test"])
    }))

  it.scoped("a redirect is a failed attempt: logged with its status, retried, and its Location never requested", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 307, headers: { location: receiver.url("/moved") } }))
      const org = yield* importWebhookOrg("Deliver Redirect Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 1)
      yield* sendBatches(BASE_MS)
      const [row] = yield* deliveriesOf(org.orgId)
      expect(yield* retryJobsOf(org.orgId)).toMatchObject([{ subject_id: row!.id }])
      expect(row).toMatchObject({ status: "PENDING", response_status: 307, error: "answered 307 (redirects are not followed)" })
      expect(receiver.received.map((request) => request.path)).toEqual(["/hooks"])
    }))

  it.scoped("after a rotation both secrets sign each delivery; once the 24 hours are over only the new one", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* webhookReceiver()
      const org = yield* importWebhookOrg("Deliver Rotate Org")
      const endpoint = yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      const rotated = yield* (yield* WebhookEndpoints).rotateSecret(ownerAccess(org.orgId, "rotateSecret"), endpoint.id as never)
      expect(rotated.secret).not.toBe(endpoint.secret)
      yield* emitEnrollments(org, 1)
      yield* sendBatches(BASE_MS)
      for (const secret of [rotated.secret, endpoint.secret]) expect(verifiedWith(secret, receiver.received[0]!)).toBeTruthy()

      yield* sql`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = ${endpoint.id}`
      yield* emitEnrollments(org, 1)
      yield* sendBatches(BASE_MS)
      expect(verifiedWith(rotated.secret, receiver.received[1]!)).toBeTruthy()
      expect(() => verifiedWith(endpoint.secret, receiver.received[1]!)).toThrow("No matching signature")
    }))

  it.scoped("out of attempts the delivery is FAILED with the last reason, and no next attempt is planned", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* webhookReceiver()
      receiver.answerWith(() => ({ status: 500 }))
      const org = yield* importWebhookOrg("Deliver Last Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 1)
      // The batch's attempt fails; then, as if ten more had, this claim is the last.
      yield* sendBatches(BASE_MS)
      yield* sql`UPDATE jobs SET attempts = ${WEBHOOK_DELIVERY_ATTEMPTS - 1} WHERE org_id = ${org.orgId} AND kind = 'webhook.deliver'`
      expect(yield* attempt(yield* claimDelivery)).toBe("failed")
      const [row] = yield* deliveriesOf(org.orgId)
      expect(row).toMatchObject({ status: "FAILED", attempts: 2, response_status: 500, error: "given up after its last attempt: answered 500", next_in_ms: null })
    }))

  it.scoped("a delivery whose event left the feed fails without a request", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* webhookReceiver()
      const org = yield* importWebhookOrg("Deliver Expired Org")
      yield* createEndpoint(org.orgId, { url: receiver.url(), eventTypes: ["enrollment.created"] })
      const { positions } = yield* emitEnrollments(org, 1)
      // Its delivery made, the event then leaves the feed before the attempt.
      yield* runFanouts
      yield* sql`DELETE FROM events WHERE position = ${positions[0]!}`
      yield* sendBatches(BASE_MS)
      expect(yield* retryJobsOf(org.orgId)).toEqual([])
      expect((yield* deliveriesOf(org.orgId))[0]).toMatchObject({ status: "FAILED", attempts: 0, error: "the event is no longer in the feed (events are kept 30 days)" })
      expect(receiver.received).toEqual([])
    }))
})

// Private targets refused: the sender a production service runs.
const StrictLayer = webhookServices(layerWebhookSender({ allowPrivateTargets: false, resolver: fakeResolver({ "hooks.example.test": ["127.0.0.1"] }).resolver })).pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
)

layer(StrictLayer, { excludeTestServices: true })("delivering webhooks where private targets are refused", (it) => {
  it.scoped("a public-looking name that resolves to 127.0.0.1 is refused at delivery: the attempt is logged with the reason and nothing reaches the receiver", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const receiver = yield* webhookReceiver()
      const org = yield* importWebhookOrg("Deliver Private Org")
      yield* createEndpoint(org.orgId, { url: `https://hooks.example.test:${receiver.port}/hooks`, eventTypes: ["enrollment.created"] })
      yield* emitEnrollments(org, 1)
      yield* sendBatches(BASE_MS)
      const [row] = yield* deliveriesOf(org.orgId)
      expect(yield* retryJobsOf(org.orgId)).toMatchObject([{ subject_id: row!.id, attempts: 1 }])
      expect(row!.status).toBe("PENDING")
      expect(row!.response_status).toBeNull()
      expect(row!.error).toContain("hooks.example.test resolves to 127.0.0.1, which is not a public address")
      expect(receiver.received).toEqual([])
    }))
})
