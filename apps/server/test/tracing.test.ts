import { describe, expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { tracingWith } from "../src/observability/tracing.js"
import { withCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

const exporter = new InMemorySpanExporter()
const TracedServer = TestServerLive.pipe(Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))

layer(TracedServer, { excludeTestServices: true })("tracing", (it) => {
  describe("OpenTelemetry spans", () => {
    it.effect("a request yields a server span with a child SQL span", () =>
      Effect.gen(function*() {
        const { tokens } = yield* withCallerMatrix({ organization: { name: "Traced Org" } })
        exporter.reset()
        const response = yield* raw("GET", "/v1/teams", { token: tokens.admin })
        expect(response.status).toBe(200)
        // Spans end after the response is written; give the processor a moment.
        yield* Effect.sleep("200 millis")
        const spans = exporter.getFinishedSpans()
        const server = spans.find((span) => span.name.startsWith("http.server") && span.name.includes("GET"))
        expect(server, spans.map((span) => span.name).join(", ")).toBeDefined()
        const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]))
        const descendsFromServer = (spanId: string | undefined): boolean => {
          for (let id = spanId, hops = 0; id !== undefined && hops < 50; hops++) {
            if (id === server!.spanContext().spanId) return true
            id = byId.get(id)?.parentSpanContext?.spanId
          }
          return false
        }
        const sql = spans.filter((span) => span.name === "sql.execute")
        expect(sql.length).toBeGreaterThan(0)
        expect(sql.every((span) => span.spanContext().traceId === server!.spanContext().traceId)).toBe(true)
        expect(sql.some((span) => descendsFromServer(span.parentSpanContext?.spanId))).toBe(true)
        expect(sql.some((span) => String(span.attributes["db.query.text"] ?? "").includes("FROM teams"))).toBe(true)
        expect(server!.resource.attributes["service.name"]).toBe("tks-test")
      }))
  })
})
