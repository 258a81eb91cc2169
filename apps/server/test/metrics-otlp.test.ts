import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { MetricsLive } from "../src/observability/metrics.js"
import { DatabaseMetricsLive } from "../src/observability/metrics-database.js"
import { withCallerMatrix } from "./support/callers.js"
import { type Collected, collector } from "./support/otlp-collector.js"
import { raw, TestServerWithoutWorkersLive } from "./support/server.js"

interface AnyValue {
  readonly stringValue?: string
  readonly intValue?: number | string
  readonly doubleValue?: number
}

interface DataPoint {
  readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: AnyValue }>
  readonly asDouble?: number
  readonly asInt?: number | string
  readonly count?: number | string
}

interface OtlpMetric {
  readonly name: string
  readonly unit?: string
  readonly histogram?: { readonly dataPoints: ReadonlyArray<DataPoint> }
  readonly gauge?: { readonly dataPoints: ReadonlyArray<DataPoint> }
  readonly sum?: { readonly dataPoints: ReadonlyArray<DataPoint> }
}

interface Export {
  readonly resourceMetrics: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: AnyValue }> }
    readonly scopeMetrics: ReadonlyArray<{ readonly metrics: ReadonlyArray<OtlpMetric> }>
  }>
}

/** A data point as plain values: its attributes and its number (a histogram's count). */
interface Point {
  readonly metric: string
  readonly unit: string | undefined
  readonly attributes: Readonly<Record<string, string | number>>
  readonly value: number
}

const plain = (value: AnyValue): string | number => value.stringValue ?? Number(value.intValue ?? value.doubleValue)

/** Every data point of an OTLP/HTTP JSON metrics export. */
const pointsOf = (body: string): ReadonlyArray<Point> => {
  const exported = JSON.parse(body) as Export
  return exported.resourceMetrics.flatMap((resource) =>
    resource.scopeMetrics.flatMap((scope) =>
      scope.metrics.flatMap((metric) =>
        (metric.histogram ?? metric.gauge ?? metric.sum)?.dataPoints.map((point): Point => ({
          metric: metric.name,
          unit: metric.unit,
          attributes: Object.fromEntries((point.attributes ?? []).map(({ key, value }) => [key, plain(value)])),
          value: Number(point.count ?? point.asDouble ?? point.asInt)
        })) ?? []
      )
    )
  )
}

const pointsIn = (bodies: ReadonlyArray<Collected>) => bodies.filter((entry) => entry.path === "/v1/metrics").map((entry) => pointsOf(entry.body))

const MEMBER_ROUTE = "/v1/members/{id}"

/** An export that has the request, a refusal and the backlog gauges in it. */
const complete = (points: ReadonlyArray<Point>) =>
  points.some((point) => point.metric === "http.server.request.duration" && point.attributes["http.route"] === MEMBER_ROUTE) &&
  points.some((point) => point.metric === "tks.rate_limit.refusals" && point.attributes["rule"] === "learning-queue") &&
  points.some((point) => point.metric === "tks.jobs.queue_depth")

describe("metrics over OTLP", () => {
  it.live("with OTEL_EXPORTER_OTLP_ENDPOINT set, request durations, the pool, the backlog gauges and the core's counters reach the collector", () =>
    Effect.gen(function*() {
      const sink = yield* collector
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url
      process.env.OTEL_METRIC_EXPORT_INTERVAL = "300"
      const points = yield* Effect.scoped(
        Effect.gen(function*() {
          const context = yield* Layer.build(
            DatabaseMetricsLive.pipe(Layer.provideMerge(TestServerWithoutWorkersLive), Layer.provideMerge(MetricsLive))
          )
          return yield* Effect.gen(function*() {
            const { tokens, userIds } = yield* withCallerMatrix({ organization: { name: "Measured Org" } })
            expect((yield* raw("GET", `/v1/members/${userIds.viewer}`, { token: tokens.admin })).status).toBe(200)
            const statuses: Array<number> = []
            for (let i = 0; i < 21; i++) statuses.push((yield* raw("GET", "/v1/me/learning-queue", { token: tokens.viewer })).status)
            expect(statuses).toContain(429)
            // Exports come every 300 ms; the test's timeout bounds the wait for one with all of it.
            while (true) {
              const found = pointsIn(sink.bodies).find(complete)
              if (found !== undefined) return found
              yield* Effect.sleep(Duration.millis(100))
            }
          }).pipe(Effect.provide(context))
        })
      ).pipe(
        Effect.ensuring(Effect.sync(() => {
          delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
          delete process.env.OTEL_METRIC_EXPORT_INTERVAL
        }))
      )
      const request = points.find((point) => point.metric === "http.server.request.duration" && point.attributes["http.route"] === MEMBER_ROUTE)!
      expect(request.unit).toBe("s")
      expect(request.attributes).toEqual({ "http.request.method": "GET", "http.route": MEMBER_ROUTE, "http.response.status_code": 200 })
      expect(request.value).toBe(1)
      const states = points.filter((point) => point.metric === "db.client.connection.count").map((point) => point.attributes["db.client.connection.state"])
      expect(states.sort()).toEqual(["idle", "used"])
      const refusals = points.filter((point) => point.metric === "tks.rate_limit.refusals" && point.attributes["rule"] === "learning-queue")
      expect(refusals.reduce((sum, point) => sum + point.value, 0)).toBeGreaterThanOrEqual(1)
      const kinds = points.filter((point) => point.metric === "tks.jobs.queue_depth").map((point) => point.attributes["kind"])
      expect(kinds).toEqual(expect.arrayContaining(["content.process", "quiz.prepare", "pop-quiz.prepare", "notification.deliver"]))
      expect(points.some((point) => point.metric === "tks.outbox.pending")).toBe(true)
      // The service is named in each export's resource.
      expect(sink.bodies.find((entry) => entry.path === "/v1/metrics")!.body).toContain("training-knowledge-service")
    }).pipe(Effect.scoped), 60_000)
})
