import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { WebhookSender } from "@tks/adapters/webhooks/port"
import { layerWebhookSender } from "@tks/adapters/webhooks/sender"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import type { CreateWebhookEndpoint } from "@tks/domain/webhooks"
import { type ClaimedJob, JobsRepo } from "../../src/jobs/repo.js"
import { type EventDraft, Journal } from "../../src/journal/journal.js"
import { FixtureImporter } from "../../src/org-import/importer.js"
import { spanOf } from "../../src/webhooks/span.js"
import { webhookBatchJob } from "../../src/webhooks/deliver-batch-job.js"
import { WebhookFanout } from "../../src/webhooks/fanout.js"
import { webhookFanoutJob } from "../../src/webhooks/fanout-job.js"
import { WebhookEndpoints } from "../../src/webhooks/service.js"
import { fakeResolver } from "../../../adapters/test/support/fake-resolver.js"
import { actorIn, allowed } from "./access.js"

/**
 * What the webhook tests share: an organization with admins and others,
 * endpoints made through the service as its owner, events written through
 * the journal and fanned out as an act does, their batches sent, and the
 * delivery jobs claimed and run one at a time as a worker would.
 */

/** The real sender with loopback receivers allowed; names resolve nowhere, so nothing leaves this machine. */
export const LoopbackSenderLive = layerWebhookSender({ allowPrivateTargets: true, resolver: fakeResolver({}).resolver })

/** Ava (owner), Ben (admin), Bea (billing admin), Vic (viewer), Dee (an admin who left). */
export const importWebhookOrg = (name: string) =>
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const result = yield* importer.importOrganization({
      organization: { name },
      people: [
        { key: "ava", name: "Ava Owner", email: "ava@hooks.test", role: "owner", phone: "+15550100001" },
        { key: "ben", name: "Ben Admin", email: "ben@hooks.test", role: "admin" },
        { key: "bea", name: "Bea Billing", email: "bea@hooks.test", role: "billing-admin" },
        { key: "vic", name: "Vic Viewer", email: "vic@hooks.test", role: "viewer" },
        { key: "dee", name: "Dee Departed", email: "dee@hooks.test", role: "admin", status: "DEACTIVATED" }
      ]
    })
    const orgId = OrganizationId.make(result.organizationId)
    return { orgId, people: result.ids.people as Readonly<Record<"ava" | "ben" | "bea" | "vic" | "dee", string>> }
  }).pipe(Effect.orDie)

/** The organization's owner, allowed by the webhook policy `policy`. */
export const ownerAccess = (orgId: string, policy: keyof typeof policies.webhooks) => allowed(actorIn(orgId, "owner"), policies.webhooks[policy])

/** An endpoint made as the owner; answers it with its secret. */
export const createEndpoint = (orgId: string, input: CreateWebhookEndpoint) =>
  Effect.flatMap(WebhookEndpoints, (webhooks) => webhooks.create(ownerAccess(orgId, "create"), input))

/** `count` enrollment events of one act about Vic, recorded by the journal; their positions and the fan-out jobs the act queued. */
export const emitEnrollments = (
  org: { readonly orgId: string; readonly people: { readonly vic: string } },
  count: number,
  type: "enrollment.created" | "enrollment.completed" = "enrollment.created"
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const journal = yield* Journal
    const personId = org.people.vic
    const events: Array<EventDraft> = Array.from({ length: count }, (_, i) =>
      type === "enrollment.created"
        ? { type, personId, data: { enrollment: { id: `enr_${i}` }, lesson: { id: "les_1", title: "Forklift safety" } } }
        : { type, personId, data: { enrollment: { id: `enr_${i}`, score: 0.9 }, lesson: { id: "les_1", title: "Forklift safety" } } })
    return yield* sql.withTransaction(Effect.gen(function*() {
      const positions = yield* journal.record({
        caller: Caller.system("test"),
        orgId: OrganizationId.make(org.orgId),
        action: type,
        targets: [{ type: "lesson", id: "les_1" }],
        events
      })
      const span = spanOf(positions)
      const [queued] = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM jobs
        WHERE org_id = ${org.orgId} AND kind = 'webhook.fanout' AND subject_id LIKE ${`%@${span.first}-${span.last}`}`
      return { positions, fanouts: queued?.n ?? 0 }
    }))
  }).pipe(Effect.orDie)

export interface DeliveryRecord {
  readonly id: string
  readonly endpoint_id: string
  readonly event_id: string
  readonly event_type: string
  readonly event_position: string | null
  readonly status: string
  readonly attempts: number
  readonly response_status: number | null
  readonly response_body: string | null
  readonly error: string | null
  readonly next_in_ms: number | null
}

/** An organization's deliveries, oldest event first; `next_in_ms`: how far off the next attempt is. */
export const deliveriesOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<DeliveryRecord>`
      SELECT id, endpoint_id, event_id, event_type, event_position::text AS event_position, status, attempts, response_status,
        response_body, error, (extract(epoch FROM next_attempt_at - now()) * 1000)::float8 AS next_in_ms
      FROM webhook_deliveries WHERE org_id = ${orgId} ORDER BY event_position NULLS LAST, endpoint_id, created_at`).pipe(Effect.orDie)

/** The webhook jobs of an organization of `kind`: subject, status, attempts. */
export const webhookJobsOf = (orgId: string, kind: "webhook.fanout" | "webhook.deliver-batch" | "webhook.deliver" = "webhook.deliver") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ subject_id: string; status: string; attempts: number; max_attempts: number }>`
      SELECT subject_id, status, attempts, max_attempts FROM jobs WHERE org_id = ${orgId} AND kind = ${kind}
      ORDER BY created_at, subject_id`).pipe(Effect.orDie)

const OWNER = "webhook-test"

/** Runs every due "webhook.fanout" job, as a worker would: the acts' deliveries get their delivery jobs. */
export const runFanouts = Effect.gen(function*() {
  const jobs = yield* JobsRepo
  const handler = yield* webhookFanoutJob
  while (true) {
    const job = yield* jobs.claim({ owner: OWNER, kinds: ["webhook.fanout"], leaseMs: 60_000 })
    if (Option.isNone(job)) return
    yield* handler.run(job.value)
    yield* jobs.complete(job.value, OWNER)
  }
}).pipe(Effect.orDie)

/**
 * Runs the fan-outs, then every due "webhook.deliver-batch" job once, as a
 * worker would (a failed run is failed with the workers' retry): each
 * event's first attempt. Answers how many batches ran.
 */
export const sendBatches = (retryBaseMs: number) =>
  Effect.gen(function*() {
    yield* runFanouts
    const jobs = yield* JobsRepo
    const handler = yield* webhookBatchJob({ retryBaseMs })
    let ran = 0
    while (true) {
      const job = yield* jobs.claim({ owner: OWNER, kinds: ["webhook.deliver-batch"], leaseMs: 60_000 })
      if (Option.isNone(job)) return ran
      ran++
      const exit = yield* Effect.exit(handler.run(job.value))
      if (exit._tag === "Success") yield* jobs.complete(job.value, OWNER)
      else yield* jobs.fail(job.value, OWNER, "the batch failed", retryBaseMs)
    }
  }).pipe(Effect.orDie)

/**
 * Claims the next delivery job (a retry, a ping, a replay), as a worker
 * would; waiting retries are made due first (time is driven through the
 * database, never slept through).
 */
export const claimDelivery = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE jobs SET run_after = now() WHERE kind = 'webhook.deliver' AND status = 'PENDING'`
  const job = yield* (yield* JobsRepo).claim({ owner: OWNER, kinds: ["webhook.deliver"], leaseMs: 60_000 })
  return Option.isSome(job) ? job.value : yield* Effect.dieMessage("no webhook delivery job was due")
}).pipe(Effect.orDie)

/** Nothing due for the next test (a test claims the oldest due job). */
export const settleAllJobs = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`UPDATE jobs SET status = 'COMPLETED', completed_at = now() WHERE status IN ('PENDING', 'RUNNING')`).pipe(Effect.orDie)

export type { ClaimedJob }

/** The test layer of the webhook services, over `sender` (default: loopback receivers allowed). */
export const webhookServices = <E>(sender: Layer.Layer<WebhookSender, E> = LoopbackSenderLive) =>
  Layer.mergeAll(WebhookEndpoints.Default, WebhookFanout.Default, Journal.Default, FixtureImporter.Default, JobsRepo.Default).pipe(
    Layer.provideMerge(sender)
  )
