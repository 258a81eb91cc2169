import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, LogLevel } from "effect"
import { SqlClient } from "@effect/sql"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { ContentProcessing } from "@tks/core/processing/service"
import { ContentId, OrganizationId } from "@tks/domain/ids"
import { TracingLive } from "../src/observability/tracing.js"
import { withCallerMatrix } from "./support/callers.js"
import { collector } from "./support/otlp-collector.js"
import { startServerProcess, stop } from "./support/server-process.js"
import { raw, TestServerLive } from "./support/server.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

describe("tracing over OTLP", () => {
  it.live("with OTEL_EXPORTER_OTLP_ENDPOINT set, a request's spans reach the collector when the service stops", () =>
    Effect.gen(function*() {
      const sink = yield* collector
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url
      try {
        yield* Effect.scoped(
          Effect.gen(function*() {
            const context = yield* Layer.build(TestServerLive.pipe(Layer.provide(TracingLive)))
            yield* Effect.gen(function*() {
              const { tokens } = yield* withCallerMatrix({ organization: { name: "Exported Org" } })
              const response = yield* raw("GET", "/v1/me", { token: tokens.viewer })
              expect(response.status).toBe(200)
            }).pipe(Effect.provide(context))
          })
        )
      } finally {
        delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
      }
      const traces = sink.bodies.filter((entry) => entry.path === "/v1/traces")
      expect(traces.length).toBeGreaterThan(0)
      const all = traces.map((entry) => entry.body).join("\n")
      expect(all).toContain("GET /v1/me")
      expect(all).toContain("SELECT users")
      expect(all).toContain("training-knowledge-service")
    }).pipe(Effect.scoped), 60_000)
})

describe("tracing in a standalone worker", () => {
  it.live("`pnpm worker` with OTEL_EXPORTER_OTLP_ENDPOINT set exports each job run's span, linked to the span that queued the job", () =>
    Effect.gen(function*() {
      const sink = yield* collector
      const sql = yield* SqlClient.SqlClient
      const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
        importer.importOrganization({ organization: { name: "Worker Trace Org" } })))
      const orgId = OrganizationId.make(imported.organizationId)
      const contentId = ContentId.make("cnt_worker_traced")
      const processing = yield* ContentProcessing
      // Queued inside a span of this process, as a request would queue it.
      const queuedBy = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO content (org_id, id, type, title, body, status)
                   VALUES (${orgId}, ${contentId}, 'document', 'traced.md', '# Traced', 'published')`
        yield* processing.enqueue(orgId, contentId)
      })).pipe(Effect.zipRight(Effect.currentSpan), Effect.withSpan("queue the job"), Effect.orDie)
      const worker = yield* startServerProcess({
        DATABASE_URL: yield* SharedDatabaseUrl,
        WORKER_ID: "traced",
        WORKER_POLL_MS: "100",
        DB_POOL_MAX: "3",
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url
      }, { args: ["--import", "tsx", "apps/server/src/worker-main.ts"] })
      while ((yield* sql<{ status: string }>`SELECT status FROM jobs WHERE subject_id = ${contentId}`)[0]?.status !== "COMPLETED") {
        if (worker.child.exitCode !== null) return yield* Effect.dieMessage(`the worker exited: ${worker.stderr()}`)
        yield* Effect.sleep(Duration.millis(50))
      }
      // Stopping flushes the spans it still holds.
      expect(yield* stop(worker)).toBe(0)
      const all = sink.bodies.filter((entry) => entry.path === "/v1/traces").map((entry) => entry.body).join("\n")
      expect(all).toContain("job content.process")
      expect(all).toContain(contentId)
      expect(all).toContain(queuedBy.traceId)
      expect(all).toContain("UPDATE jobs")
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.mergeAll(FixtureImporter.Default, ContentProcessing.Default).pipe(
        Layer.provideMerge(SharedDatabaseLive),
        Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
      ))
    ), 120_000)
})
