import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Layer, Logger, LogLevel, Option } from "effect"
import { CoreLive } from "@tks/core/live"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { ContentProcessing } from "@tks/core/processing/service"
import { ContentId, OrganizationId } from "@tks/domain/ids"
import { travelHandbook } from "../../../packages/core/test/support/handbook.js"
import { failureLine } from "../src/startup/failure.js"
import { WorkerConfig } from "../src/workers.js"
import { workersLayer } from "../src/workers.js"
import { LocalQuestionGenerator } from "@tks/adapters/questions/local"
import { TestExtractorLive } from "../../../packages/core/test/support/test-extractor.js"
import { linesOf, startServerProcess, stop, waitReady } from "./support/server-process.js"
import { TestAdaptersLive, TestMessagingLive, TestWebhookSenderLive } from "./support/adapters.js"
import { TestServerLive } from "./support/server.js"

const read = (env: Record<string, string>) =>
  Effect.exit(WorkerConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("worker settings", () => {
  it.effect("default to workers on, 2 at once, a 1 s poll, a 30 s lease and 5 s first retry; a bad value names its variable", () =>
    Effect.gen(function*() {
      const defaults = yield* Effect.flatten(read({}))
      expect(defaults).toMatchObject({ enabled: true, concurrency: 2, pollMs: 1_000, leaseMs: 30_000, retryBaseMs: 5_000, stageDelayMs: 0, webhookConcurrency: 16 })
      expect(defaults.owner).toMatch(/^.+:\d+:[0-9a-f]{6}$/)
      expect(yield* Effect.flatten(read({ WORKERS: "0", WORKER_ID: "w-1" }))).toMatchObject({ enabled: false, owner: "w-1" })
      const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
        [{ WORKERS: "maybe" }, `WORKERS must be true or false (or 1/0), got "maybe"`],
        [{ WORKER_CONCURRENCY: "0" }, `WORKER_CONCURRENCY must be a whole number of at least 1, got "0"`],
        [{ WORKER_LEASE_MS: "50" }, `WORKER_LEASE_MS must be milliseconds, at least 100, got "50"`]
      ]
      for (const [env, message] of cases) {
        const exit = yield* read(env)
        expect(Exit.isFailure(exit) ? Option.getOrElse(failureLine(exit.cause), () => "") : "accepted").toBe(
          `Cannot start the service: ${message}`
        )
      }
    }))
})

describe("the server process runs the job workers unless WORKERS=0", () => {
  const started = (env: Record<string, string>) =>
    Effect.gen(function*() {
      const server = yield* startServerProcess({ SEED_DEMO: "false", ...env })
      expect(yield* waitReady(server), server.stderr()).toBe(true)
      const code = yield* stop(server)
      // A signal instead of a code says what ended it (seen once in CI: no code at all); the logs say how far it got.
      expect({ code, signal: server.child.signalCode }, `${server.stdout().slice(-3_000)}\n${server.stderr().slice(-2_000)}`).toEqual({ code: 0, signal: null })
      return linesOf(server.stdout()).some((line) => line.includes("job workers started"))
    })

  it.scopedLive("by default they start with the server, and WORKERS=0 leaves them out", () =>
    Effect.gen(function*() {
      expect(yield* started({})).toBe(true)
      expect(yield* started({ WORKERS: "0" })).toBe(false)
    }), { timeout: 120_000 })
})

layer(TestServerLive, { excludeTestServices: true })("the test server", (it) => {
  it.effect("processes content enqueued through ContentProcessing, as intake does", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
        importer.importOrganization({ organization: { name: "Worker Server Org" } })))
      const orgId = OrganizationId.make(imported.organizationId)
      const contentId = ContentId.make("cnt_server_processed")
      const processing = yield* ContentProcessing
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO content (org_id, id, type, title, body, status)
                   VALUES (${orgId}, ${contentId}, 'document', 'handbook.md', ${travelHandbook}, 'published')`
        yield* processing.enqueue(orgId, contentId)
      }))
      let statuses = { processing_status: "", indexing_status: "" }
      while (statuses.indexing_status !== "COMPLETED" && statuses.indexing_status !== "FAILED") {
        yield* Effect.sleep(Duration.millis(50))
        statuses = (yield* sql<typeof statuses>`SELECT processing_status, indexing_status FROM content WHERE id = ${contentId}`)[0]!
      }
      expect(statuses).toEqual({ processing_status: "COMPLETED", indexing_status: "COMPLETED" })
      const [job] = yield* sql<{ lease_owner: string }>`SELECT lease_owner FROM jobs WHERE subject_id = ${contentId}`
      expect(job!.lease_owner).toMatch(/^test-server\//)
    }).pipe(Effect.orDie))
})

// As main.ts composes them: CoreLive (intake's ContentProcessing) and the workers, one wake signal between them.
const WithSlowPoll = Layer.mergeAll(
  CoreLive,
  FixtureImporter.Default,
  workersLayer({ enabled: true, owner: "slow-poll", concurrency: 1, pollMs: 600_000, leaseMs: 10_000, retryBaseMs: 50, stageDelayMs: 0, webhookConcurrency: 1 }).pipe(
    Layer.provide(Layer.merge(TestExtractorLive, LocalQuestionGenerator))
  )
).pipe(
  Layer.provideMerge(Layer.mergeAll(TestAdaptersLive, TestMessagingLive, TestWebhookSenderLive)),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

layer(WithSlowPoll, { excludeTestServices: true })("in one process", (it) => {
  it.effect("content enqueued by a service starts processing at once, though the workers poll every ten minutes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
        importer.importOrganization({ organization: { name: "Wake Org" } })))
      const orgId = OrganizationId.make(imported.organizationId)
      const contentId = ContentId.make("cnt_woken_in_server")
      const processing = yield* ContentProcessing
      // Published and enqueued in one transaction, as intake does.
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO content (org_id, id, type, title, body, status)
                   VALUES (${orgId}, ${contentId}, 'document', 'handbook.md', ${travelHandbook}, 'published')`
        yield* processing.enqueue(orgId, contentId)
      }))
      let status = ""
      while (status !== "COMPLETED") {
        yield* Effect.sleep(Duration.millis(50))
        status = (yield* sql<{ indexing_status: string }>`SELECT indexing_status FROM content WHERE id = ${contentId}`)[0]!.indexing_status
      }
      const [job] = yield* sql<{ lease_owner: string }>`SELECT lease_owner FROM jobs WHERE subject_id = ${contentId}`
      expect(job!.lease_owner).toBe("slow-poll/0")
    }).pipe(Effect.orDie), { timeout: 20_000 })
})
