import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TracingLive } from "../src/observability/tracing.js"
import { withCallerMatrix } from "./support/callers.js"
import { collector } from "./support/otlp-collector.js"
import { raw, TestServerLive } from "./support/server.js"

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
      expect(all).toContain("http.server GET")
      expect(all).toContain("sql.execute")
      expect(all).toContain("training-knowledge-service")
    }).pipe(Effect.scoped), 60_000)
})
