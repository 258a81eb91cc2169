import { Duration, Effect, Layer } from "effect"
import { WebhookSender } from "@tks/adapters/webhooks/port"
import { type EventDraft, Journal } from "@tks/core/journal/journal"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { webhookFanoutJob } from "@tks/core/webhooks/fanout-job"
import { WebhookEndpoints } from "@tks/core/webhooks/service"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { authorize, isAccess } from "@tks/domain/policy"
import { Sql } from "./database.js"

/**
 * `npx tsx scripts/bench/webhook-fanout.ts [events]`: in a fresh database
 * (in-memory PGlite, or a new database on TEST_DATABASE_URL), times one act
 * emitting `events` `enrollment.created` events (20,000 by default, what
 * assigning a lesson to 20,000 people emits) through the journal, three
 * runs each: for an organization without an endpoint, and for one with one
 * endpoint subscribed (the act queues a fan-out job); then, for the latter,
 * the fan-out job after the act (the deliveries and their delivery jobs).
 * Each act is one transaction, as an act's is.
 */
const count = Number(process.argv[2] ?? 20_000)

// Nothing is sent: the endpoint is only written.
const NoSender = Layer.succeed(WebhookSender, {
  refusal: () => undefined,
  post: () => Effect.dieMessage("the bench sends nothing")
})

const program = Effect.gen(function*() {
  const sql = yield* Sql
  const importer = yield* FixtureImporter
  const journal = yield* Journal
  const fanoutJob = yield* webhookFanoutJob
  const organization = (name: string) =>
    Effect.map(importer.importOrganization({ organization: { name } }), (result) => OrganizationId.make(result.organizationId))
  const quiet = yield* organization("Fanout Bench Quiet")
  const subscribed = yield* organization("Fanout Bench Subscribed")
  const owner = authorize({
    organizationId: subscribed,
    userId: UserId.make("usr_bench"),
    role: "owner",
    teams: [],
    scopes: [],
    tokenId: AccessTokenId.make("tok_bench")
  }, policies.webhooks.create)
  if (!isAccess(owner)) return yield* Effect.dieMessage("the bench's owner was refused")
  yield* (yield* WebhookEndpoints).create(owner, { url: "https://hooks.bench.test/in", eventTypes: ["enrollment.created"] })

  const events: ReadonlyArray<EventDraft> = Array.from({ length: count }, (_, i) => ({
    type: "enrollment.created",
    data: { enrollment: { id: `enr_${i}` }, lesson: { id: "les_bench", title: "Forklift safety" } }
  }))
  const act = (orgId: OrganizationId) =>
    sql.withTransaction(journal.record({
      caller: Caller.system("bench"),
      orgId,
      action: "enrollment.created",
      targets: [{ type: "lesson", id: "les_bench" }],
      events
    }))
  const fanOutAfter = Effect.gen(function*() {
    // Taken as a worker would, but by hand: the bench runs the job's handler alone.
    const [row] = yield* sql<{ id: string; org_id: string; subject_id: string }>`
      UPDATE jobs SET status = 'RUNNING', attempts = 1 WHERE kind = 'webhook.fanout' AND status = 'PENDING'
      RETURNING id, org_id, subject_id`
    if (row === undefined) return yield* Effect.dieMessage("the act queued no fan-out job")
    yield* fanoutJob.run({ id: row.id, orgId: OrganizationId.make(row.org_id), kind: "webhook.fanout", subjectId: row.subject_id, attempt: 1, maxAttempts: 5 })
    yield* sql`UPDATE jobs SET status = 'COMPLETED', completed_at = now() WHERE id = ${row.id}`
    const [made] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs WHERE kind = 'webhook.deliver' AND status = 'PENDING'`
    yield* sql`UPDATE jobs SET status = 'COMPLETED', completed_at = now() WHERE kind = 'webhook.deliver' AND status = 'PENDING'`
    return made?.n ?? 0
  })

  const database = process.env["TEST_DATABASE_URL"] ? "PostgreSQL (TEST_DATABASE_URL)" : "embedded PGlite (in memory)"
  for (const [label, orgId] of [["no endpoint", quiet], ["one endpoint subscribed", subscribed]] as const) {
    for (let run = 1; run <= 3; run++) {
      const [elapsed] = yield* Effect.timed(act(orgId))
      console.log(`the act, ${label}, ${count} events on ${database}, run ${run}: ${Duration.format(elapsed)}`)
      if (orgId !== subscribed) continue
      const [fanned, deliveries] = yield* Effect.timed(fanOutAfter)
      console.log(`  its fan-out job after it: ${deliveries} deliveries and their jobs in ${Duration.format(fanned)}`)
    }
  }
})

Effect.runPromise(
  program.pipe(
    Effect.provide(
      Layer.mergeAll(FixtureImporter.Default, Journal.Default, WebhookEndpoints.Default).pipe(
        Layer.provideMerge(NoSender),
        Layer.provideMerge(TestDatabaseLive)
      )
    )
  )
).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
