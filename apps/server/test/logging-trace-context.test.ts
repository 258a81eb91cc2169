import { HttpLayerRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { SpanKind } from "@opentelemetry/api"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { accessLog } from "../src/http/access-log.js"
import { createHttpServer } from "../src/http/node-server.js"
import { withTraceContext } from "../src/observability/logging.js"
import { tracingWith } from "../src/observability/tracing.js"

interface Line {
  readonly message: string
  readonly annotations: Record<string, unknown>
}

/** A logger that keeps each line's message and annotations, behind the trace-context rule. */
const capturing = () => {
  const lines: Array<Line> = []
  const logger = Logger.replace(
    Logger.defaultLogger,
    withTraceContext(Logger.make(({ annotations, message }) => {
      const record: Record<string, unknown> = {}
      for (const [key, value] of annotations) record[key] = value
      lines.push({ message: (Array.isArray(message) ? message : [message]).map(String).join(" "), annotations: record })
    }))
  )
  return { lines, logger }
}

describe("log lines carry the trace and span they were logged in", () => {
  it.live("a line logged inside an exported span has its trace_id and span_id; one outside any span has neither", () =>
    Effect.gen(function*() {
      const exporter = new InMemorySpanExporter()
      const { lines, logger } = capturing()
      // The provider empties its exporter when it shuts down: the spans are read (copied) before. A span is
      // handed to the exporter once the resource's attributes are known, which may be a moment after it ends.
      const spans = yield* Effect.gen(function*() {
        yield* Effect.logInfo("outside")
        yield* Effect.logInfo("inside").pipe(Effect.withSpan("work"))
        for (let waited = 0; exporter.getFinishedSpans().length === 0 && waited < 5_000; waited += 10) yield* Effect.sleep("10 millis")
        return [...exporter.getFinishedSpans()]
      }).pipe(Effect.provide(Layer.merge(tracingWith(new SimpleSpanProcessor(exporter), "tks-test"), logger)))
      const span = spans.find((finished) => finished.name === "work")!
      expect(lines.find((line) => line.message === "inside")?.annotations).toEqual({
        trace_id: span.spanContext().traceId,
        span_id: span.spanContext().spanId
      })
      expect(lines.find((line) => line.message === "outside")?.annotations).toEqual({})
    }))

  it.effect("with tracing off, a line inside a span carries no ids (the span is not exported)", () =>
    Effect.gen(function*() {
      const { lines, logger } = capturing()
      // The level is set here: a level another file of the same worker left must not hide the line.
      yield* Effect.logInfo("inside").pipe(
        Effect.withSpan("work"),
        Effect.provide(Layer.mergeAll(Layer.setTracerEnabled(false), logger, Logger.minimumLogLevel(LogLevel.Info)))
      )
      expect(lines).toEqual([{ message: "inside", annotations: {} }])
    }))

  it.live("the access log line and a handler's line of a traced request carry the request's server span", () =>
    Effect.gen(function*() {
      const exporter = new InMemorySpanExporter()
      const { lines, logger } = capturing()
      const routes = HttpLayerRouter.use((router) =>
        router.add("GET", "/hello", Effect.logInfo("inside the handler").pipe(Effect.as(HttpServerResponse.text("hello"))))
      )
      const server = HttpLayerRouter.serve(routes, { disableListenLog: true, disableLogger: true, middleware: accessLog }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
        Layer.provide(Layer.mergeAll(logger, Logger.minimumLogLevel(LogLevel.Info), tracingWith(new SimpleSpanProcessor(exporter), "tks-test")))
      )
      const { spans, status } = yield* Effect.gen(function*() {
        const address = yield* HttpServer.addressWith((address) => Effect.succeed(address))
        const port = address._tag === "TcpAddress" ? address.port : 0
        const status = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/hello`).then((response) => response.status))
        // The server span ends after the response is written, and is exported a moment later.
        for (let waited = 0; !exporter.getFinishedSpans().some((span) => span.kind === SpanKind.SERVER) && waited < 5_000; waited += 10) {
          yield* Effect.sleep("10 millis")
        }
        return { spans: [...exporter.getFinishedSpans()], status }
      }).pipe(Effect.provide(server), Effect.scoped)
      expect(status).toBe(200)
      const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER)
      expect(serverSpan, spans.map((span) => span.name).join(", ")).toBeDefined()
      for (const message of ["inside the handler", "Sent HTTP response"]) {
        const line = lines.find((candidate) => candidate.message === message)
        expect(line?.annotations["trace_id"], message).toBe(serverSpan!.spanContext().traceId)
        expect(line?.annotations["span_id"], message).toBe(serverSpan!.spanContext().spanId)
      }
    }))
})
