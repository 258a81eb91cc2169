import { Duration, Effect, Layer } from "effect"
import { WebhookSender } from "@tks/adapters/webhooks/port"
import { type EventDraft, Journal } from "@tks/core/journal/journal"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { WebhookFanout } from "@tks/core/webhooks/fanout"
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
 * assigning a lesson to 20,000 people emits) three ways, three runs each:
 * the journal alone (its audit row and events), the journal and
 * `WebhookFanout.fanOut` for an organization without an endpoint, and the
 * same for one with one endpoint subscribed (the deliveries and their jobs).
 * Each run is one transaction, as the act's.
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
  const fanout = yield* WebhookFanout
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
  const act = (orgId: OrganizationId, fanOut: boolean) =>
    sql.withTransaction(Effect.gen(function*() {
      const positions = yield* journal.record({
        caller: Caller.system("bench"),
        orgId,
        action: "enrollment.created",
        targets: [{ type: "lesson", id: "les_bench" }],
        events
      })
      return fanOut ? yield* fanout.fanOut(orgId, positions) : 0
    }))

  const database = process.env["TEST_DATABASE_URL"] ? "PostgreSQL (TEST_DATABASE_URL)" : "embedded PGlite (in memory)"
  const ways = [
    ["the journal alone", quiet, false],
    ["journal + fanOut, no endpoint", quiet, true],
    ["journal + fanOut, one endpoint subscribed", subscribed, true]
  ] as const
  for (const [label, orgId, fanOut] of ways) {
    for (let run = 1; run <= 3; run++) {
      const [elapsed, deliveries] = yield* Effect.timed(act(orgId, fanOut))
      console.log(`${label}, ${count} events on ${database}, run ${run}: ${deliveries} deliveries in ${Duration.format(elapsed)}`)
    }
  }
})

Effect.runPromise(
  program.pipe(
    Effect.provide(
      Layer.mergeAll(FixtureImporter.Default, Journal.Default, WebhookFanout.Default, WebhookEndpoints.Default).pipe(
        Layer.provideMerge(NoSender),
        Layer.provideMerge(TestDatabaseLive)
      )
    )
  )
).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
