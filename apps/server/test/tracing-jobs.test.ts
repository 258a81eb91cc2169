import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { SpanKind } from "@opentelemetry/api"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Duration, Effect, Layer } from "effect"
import { tracingWith } from "../src/observability/tracing.js"
import { contributorsOnce, post } from "./support/contributors.js"
import { TestServerLive } from "./support/server.js"
import { descendsFrom } from "./support/spans.js"

const exporter = new InMemorySpanExporter()
const TracedServer = TestServerLive.pipe(Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))

/** The first exported span that `matches`, waiting for it (the test's own timeout bounds the wait). */
const spanWhere = (matches: (span: ReadableSpan) => boolean) =>
  Effect.gen(function*() {
    while (true) {
      const found = exporter.getFinishedSpans().find(matches)
      if (found !== undefined) return found
      yield* Effect.sleep(Duration.millis(50))
    }
  })

layer(TracedServer, { excludeTestServices: true })("job traces", (it) => {
  it.effect("a document's processing job runs in a span linked to the trace of the request that added it", () =>
    Effect.gen(function*() {
      const { result, token } = yield* contributorsOnce
      exporter.reset()
      const response = yield* post("/v1/documents", token("admin"), { title: "Traced policy", content: "# Travel\n\nBook early.", visibility: "everyone" })
      expect(response.status).toBe(201)
      const contentId: string = response.json.contentId

      const request = yield* spanWhere((span) => span.kind === SpanKind.SERVER && span.attributes["url.path"] === "/v1/documents")
      expect(request.name).toBe("POST /v1/documents")
      const job = yield* spanWhere((span) => span.name === "job content.process" && span.attributes["tks.job.subject_id"] === contentId)
      expect(job.kind).toBe(SpanKind.CONSUMER)
      expect(job.parentSpanContext).toBeUndefined()
      expect(job.links.map((link) => link.context.traceId)).toEqual([request.spanContext().traceId])
      expect(job.attributes).toMatchObject({
        "tks.job.kind": "content.process",
        "tks.job.attempt": 1,
        "tks.organization_id": result.organizationId,
        "tks.job.outcome": "completed"
      })

      // The job's statements are in its trace, under it, and named as the conventions say.
      const inJob = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === job.spanContext().traceId)
      const underJob = descendsFrom(inJob, job)
      const statements = inJob.filter((span) => span.attributes["db.system.name"] === "postgresql" && span.attributes["db.query.text"] !== undefined)
      const names = statements.map((span) => span.name)
      expect(statements.length, names.join(", ")).toBeGreaterThan(0)
      expect(statements.every(underJob), names.join(", ")).toBe(true)
      // Marking the job done is one of them.
      expect(names).toContain("UPDATE jobs")
    }))

  it.effect("idle workers and sweeps export no spans", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Once every job queued so far has run, a quiet while: the workers poll every 200 ms here, so a span per poll would show.
      while ((yield* sql<{ open: number }>`SELECT count(*)::int AS open FROM jobs WHERE status IN ('PENDING', 'RUNNING')`)[0]!.open > 0) {
        yield* Effect.sleep(Duration.millis(50))
      }
      yield* Effect.sleep(Duration.millis(200))
      exporter.reset()
      yield* Effect.sleep(Duration.seconds(1))
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([])
    }))
})
