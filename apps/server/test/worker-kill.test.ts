import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { ContentProcessing } from "@tks/core/processing/service"
import { ContentId, OrganizationId } from "@tks/domain/ids"
import { travelHandbook } from "../../../packages/core/test/support/handbook.js"
import { linesOf, type ServerProcess, startServerProcess, stop } from "./support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, ContentProcessing.Default).pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const LEASE_MS = 1_500

/** `pnpm worker` as its own process on the test's database (JSON logs on stdout). */
const startWorker = (id: string, env: Record<string, string>) =>
  Effect.gen(function*() {
    const url = yield* SharedDatabaseUrl
    return yield* startServerProcess({
      DATABASE_URL: url,
      WORKER_ID: id,
      WORKER_CONCURRENCY: "1",
      WORKER_POLL_MS: "100",
      WORKER_LEASE_MS: String(LEASE_MS),
      DB_POOL_MAX: "3",
      LOG_FORMAT: "json",
      LOG_LEVEL: "Info",
      ...env
    }, { args: ["--import", "tsx", "apps/server/src/worker-main.ts"] })
  })

/** Polls `query` every 50 ms until `done` holds of its first row, failing the test if `worker` exits first. */
const waitFor = <A>(worker: ServerProcess, query: Effect.Effect<ReadonlyArray<A>, unknown>, done: (row: A) => boolean) =>
  Effect.gen(function*() {
    while (true) {
      const row = (yield* Effect.orDie(query))[0]
      if (row !== undefined && done(row)) return row
      if (worker.child.exitCode !== null) return yield* Effect.dieMessage(`the worker exited: ${worker.stderr()}`)
      yield* Effect.sleep(Duration.millis(50))
    }
  })

const counts = (orgId: string, contentId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ chapters: number; evidence: number; items: number; topics: number }>`
      SELECT (SELECT count(*)::int FROM chapters WHERE org_id = ${orgId} AND content_id = ${contentId}) AS chapters,
             (SELECT count(*)::int FROM evidence WHERE org_id = ${orgId} AND content_id = ${contentId}) AS evidence,
             (SELECT count(DISTINCT i.id)::int FROM evidence e JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
              WHERE e.org_id = ${orgId} AND e.content_id = ${contentId}) AS items,
             (SELECT count(DISTINCT i.topic_id)::int FROM evidence e JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
              WHERE e.org_id = ${orgId} AND e.content_id = ${contentId}) AS topics`).pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

const organizationTotals = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ spaces: number; topics: number; items: number }>`
      SELECT (SELECT count(*)::int FROM spaces WHERE org_id = ${orgId}) AS spaces,
             (SELECT count(*)::int FROM topics WHERE org_id = ${orgId}) AS topics,
             (SELECT count(*)::int FROM items WHERE org_id = ${orgId}) AS items`).pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

/** The JSON log lines of a process: message and annotations. */
const jobLogs = (worker: ServerProcess): ReadonlyArray<Record<string, unknown>> =>
  linesOf(worker.stdout()).flatMap((line) => {
    try {
      const parsed: { message?: unknown; annotations?: Record<string, unknown> } = JSON.parse(line)
      return [{ ...parsed.annotations, message: String(parsed.message) }]
    } catch {
      return []
    }
  })

// Real processes and real time: a worker is killed mid-job and another takes the job over when the lease lapses.
layer(TestLayer, { excludeTestServices: true })("a worker killed mid-job", (it) => {
  it.scoped("another worker process takes the job over and completes it exactly once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const processing = yield* ContentProcessing
      const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
        importer.importOrganization({ organization: { name: "Kill Test Org" } })))
      const orgId = OrganizationId.make(imported.organizationId)
      const publish = (title: string) =>
        Effect.gen(function*() {
          const [row] = yield* sql<{ id: string }>`
            INSERT INTO content (org_id, id, type, title, body, status)
            VALUES (${orgId}, ${`cnt_kill_${title}`}, 'document', ${title}, ${travelHandbook}, 'published') RETURNING id`
          const id = ContentId.make(row!.id)
          yield* processing.enqueue(orgId, id)
          return id
        }).pipe(Effect.orDie)
      const jobOf = (contentId: string) =>
        sql<{ status: string; attempts: number; lease_owner: string | null }>`
          SELECT status, attempts, lease_owner FROM jobs WHERE org_id = ${orgId} AND subject_id = ${contentId}`
      const statusOf = (contentId: string) =>
        sql<{ processing_status: string; indexing_status: string; evidence: number; chapters: number }>`
          SELECT processing_status, indexing_status,
            (SELECT count(*)::int FROM evidence e WHERE e.org_id = c.org_id AND e.content_id = c.id) AS evidence,
            (SELECT count(*)::int FROM chapters h WHERE h.org_id = c.org_id AND h.content_id = c.id) AS chapters
          FROM content c WHERE c.org_id = ${orgId} AND c.id = ${contentId}`

      const killed = yield* publish("killed")
      // Slow on purpose: each stage waits 1.5 s first, so the kill lands between stages 1 and 2.
      const first = yield* startWorker("first", { WORKER_STAGE_DELAY_MS: "1500" })
      yield* waitFor(first, jobOf(killed), (job) => job.status === "RUNNING" && job.lease_owner === "first/0")
      const midJob = yield* waitFor(first, statusOf(killed), (content) => content.chapters > 0)
      // The stage's log line follows its commit: the kill waits for it (stage 2 is 1.5 s away).
      const loggedChapters = () => jobLogs(first).some((line) => line.contentId === killed && line.message === "stage chapters done")
      yield* waitFor(first, Effect.sync(() => [loggedChapters()]), (logged) => logged)
      first.child.kill("SIGKILL")
      yield* first.exited
      expect(midJob).toMatchObject({ processing_status: "PROCESSING", indexing_status: "PENDING", evidence: 0 })
      expect(yield* jobOf(killed)).toEqual([{ status: "RUNNING", attempts: 1, lease_owner: "first/0" }])

      const second = yield* startWorker("second", {})
      yield* waitFor(second, jobOf(killed), (job) => job.status === "COMPLETED")
      expect(yield* jobOf(killed)).toEqual([{ status: "COMPLETED", attempts: 2, lease_owner: "second/0" }])
      expect(yield* statusOf(killed)).toMatchObject([{ processing_status: "COMPLETED", indexing_status: "COMPLETED" }])
      const afterTakeover = yield* organizationTotals(orgId)

      // A clean single run of the same document, for comparison.
      const clean = yield* publish("clean")
      yield* waitFor(second, jobOf(clean), (job) => job.status === "COMPLETED")
      expect(yield* jobOf(clean)).toEqual([{ status: "COMPLETED", attempts: 1, lease_owner: "second/0" }])
      const cleanCounts = yield* counts(orgId, clean)
      expect(cleanCounts.chapters).toBeGreaterThan(0)
      expect(cleanCounts.evidence).toBeGreaterThan(0)
      expect(yield* counts(orgId, killed)).toEqual(cleanCounts)
      // The clean run found every space, topic and item the interrupted one made, and made no other.
      expect(yield* organizationTotals(orgId)).toEqual(afterTakeover)

      // What each process logged about the job.
      const killedLogs = (worker: ServerProcess) => jobLogs(worker).filter((line) => line.contentId === killed)
      expect(killedLogs(first).map((line) => line.message)).toEqual(["job started", "stage chapters done"])
      expect(killedLogs(first)[0]).toMatchObject({ kind: "content.process", attempt: 1, owner: "first/0" })
      expect(killedLogs(second).map((line) => line.message)).toEqual([
        "job started",
        "stage chapters done",
        "stage extraction done",
        "stage related done",
        "stage indexing done",
        "job completed"
      ])
      expect(killedLogs(second)[0]).toMatchObject({ attempt: 2, owner: "second/0" })
      for (const line of killedLogs(second).slice(1)) expect(typeof line.ms).toBe("number")
      expect(yield* stop(second)).toBe(0)
    }), { timeout: 120_000 })
})
