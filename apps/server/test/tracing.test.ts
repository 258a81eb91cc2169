import { describe, expect, layer } from "@effect/vitest"
import { SpanKind } from "@opentelemetry/api"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { tracingWith } from "../src/observability/tracing.js"
import { callerMatrixOnce } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"
import { descendsFrom } from "./support/spans.js"

const exporter = new InMemorySpanExporter()
const TracedServer = TestServerLive.pipe(Layer.provide(tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))
const setup = callerMatrixOnce({ organization: { name: "Traced Org" } })

/** The spans exported since `exporter.reset()`; spans end after the response is written, so give the processor a moment. */
const finishedSpans = Effect.as(Effect.sleep("200 millis"), undefined).pipe(Effect.map(() => exporter.getFinishedSpans()))

const serverSpanOf = (spans: ReadonlyArray<ReadableSpan>, path: string) =>
  spans.find((span) => span.kind === SpanKind.SERVER && span.attributes["url.path"] === path)

const isSql = (span: ReadableSpan) => span.attributes["db.system.name"] === "postgresql" && span.attributes["db.query.text"] !== undefined

/** An admin reads the viewer: the spans exported, the request's server span, the viewer's id. */
const readMember = Effect.gen(function*() {
  const { tokens, userIds } = yield* setup
  exporter.reset()
  const response = yield* raw("GET", `/v1/members/${userIds.viewer}`, { token: tokens.admin })
  expect(response.status).toBe(200)
  const spans = yield* finishedSpans
  const server = serverSpanOf(spans, `/v1/members/${userIds.viewer}`)
  expect(server, spans.map((span) => span.name).join(", ")).toBeDefined()
  return { spans, server: server!, memberId: userIds.viewer }
})

layer(TracedServer, { excludeTestServices: true })("tracing", (it) => {
  describe("HTTP server spans (OpenTelemetry's HTTP conventions)", () => {
    it.effect("a request's span is named by its method and route template, with the method, route, path, scheme and status", () =>
      Effect.gen(function*() {
        const { server } = yield* readMember
        expect(server.name).toBe("GET /v1/members/{id}")
        expect(server.attributes).toMatchObject({
          "http.request.method": "GET",
          "http.route": "/v1/members/{id}",
          "url.scheme": "http",
          "http.response.status_code": 200
        })
        expect(server.resource.attributes["service.name"]).toBe("tks-test")
      }))

    it.effect("a request no route matches is named by its method alone and has no route", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        exporter.reset()
        const response = yield* raw("GET", "/v1/no-such-thing", { token: tokens.admin })
        expect(response.status).toBe(404)
        const server = serverSpanOf(yield* finishedSpans, "/v1/no-such-thing")
        expect(server?.name).toBe("GET")
        expect(server?.attributes["http.route"]).toBeUndefined()
        expect(server?.attributes["http.response.status_code"]).toBe(404)
      }))
  })

  describe("SQL spans (OpenTelemetry's database conventions)", () => {
    it.effect("a request's statements are child spans named by their summary, with the operation, table and text but no values", () =>
      Effect.gen(function*() {
        const { memberId, server, spans } = yield* readMember
        const sql = spans.filter((span) => span.spanContext().traceId === server.spanContext().traceId && isSql(span))
        const names = sql.map((span) => span.name).join(", ")
        expect(sql.length, names).toBeGreaterThan(0)
        expect(sql.every(descendsFrom(spans, server)), names).toBe(true)
        for (const span of sql) {
          const text = String(span.attributes["db.query.text"])
          // The statement's own verb, not how @effect/sql ran it ("execute").
          expect(span.attributes["db.operation.name"], text).toBe(/^\s*(\w+)/.exec(text)![1]!.toUpperCase())
          expect(span.name, text).toBe(span.attributes["db.query.summary"])
          expect(span.name, text).not.toBe("sql.execute")
          expect(JSON.stringify(span.attributes), text).not.toContain(memberId)
        }
        // The member read (one table), and the rate-limit count (a WITH statement named by what it writes).
        expect(sql.find((span) => span.name === "SELECT users")?.attributes["db.collection.name"], names).toBe("users")
        const counted = sql.find((span) => span.name === "WITH INSERT rate_limit_counters")
        expect(counted?.attributes, names).toMatchObject({ "db.operation.name": "WITH", "db.collection.name": "rate_limit_counters" })
      }))
  })
})
