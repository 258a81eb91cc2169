import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { JobWake } from "../src/jobs/wake.js"
import { runJobWorkers } from "../src/jobs/worker.js"
import { webhookBatchJob } from "../src/webhooks/deliver-batch-job.js"
import { webhookDeliveryJob } from "../src/webhooks/delivery.js"
import { webhookFanoutJob } from "../src/webhooks/fanout-job.js"
import { closedPort } from "../../adapters/test/support/loopback-server.js"
import { webhookReceiver } from "../../adapters/test/support/webhook-receiver.js"
import { eventually } from "./support/jobs.js"
import { createEndpoint, deliveriesOf, emitEnrollments, importWebhookOrg, settleAllJobs, webhookServices } from "./support/webhooks.js"

const TestLayer = Layer.mergeAll(webhookServices(), JobWake.Default).pipe(
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

// The webhook schedule from a 5 ms base: retries after 5 ms, 300 ms, 1.8 s, 7.2 s...
const BASE_MS = 5

/** The job workers with the webhook handlers, for the rest of the test. */
const workers = Effect.gen(function*() {
  const handlers = [yield* webhookFanoutJob, yield* webhookBatchJob({ retryBaseMs: BASE_MS }), yield* webhookDeliveryJob({ retryBaseMs: BASE_MS })]
  yield* runJobWorkers({ owner: "webhook-workers", concurrency: 2, pollMs: 30, leaseMs: 60_000, retryBaseMs: BASE_MS }, handlers)
})

// Real time: real workers on the database clock, a real receiver.
layer(TestLayer, { excludeTestServices: true })("webhook deliveries run by the job workers", (it) => {
  it.scoped("a receiver down, then up: every event is delivered, and none twice by webhook-id", () =>
    Effect.gen(function*() {
      yield* settleAllJobs
      const port = yield* closedPort
      const org = yield* importWebhookOrg("Workers Down Org")
      yield* createEndpoint(org.orgId, { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ["enrollment.created"] })
      yield* workers
      yield* emitEnrollments(org, 6)
      // Down: every delivery is made (after the act, by its fan-out job), tried and refused.
      yield* eventually(Effect.map(deliveriesOf(org.orgId), (rows) => rows.length === 6 && rows.every((row) => row.attempts >= 1)))
      const refused = yield* deliveriesOf(org.orgId)
      for (const row of refused) expect(row.error).toContain("ECONNREFUSED")
      // Up, on the same address.
      const receiver = yield* webhookReceiver({ port })
      yield* eventually(Effect.map(deliveriesOf(org.orgId), (rows) => rows.every((row) => row.status === "SUCCEEDED")))
      const delivered = yield* deliveriesOf(org.orgId)
      expect([...receiver.ids()].sort()).toEqual(delivered.map((row) => row.event_id).sort())
      expect(new Set(receiver.ids()).size).toBe(6)
    }), 60_000)
})
