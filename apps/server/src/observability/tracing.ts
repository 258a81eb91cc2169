import { NodeSdk } from "@effect/opentelemetry"
import { HttpMiddleware } from "@effect/platform"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-node"
import { Config, Effect, Layer, Option } from "effect"
import { serverSpanName } from "./span-conventions.js"
import { withSpanRules } from "./span-rules.js"

/**
 * Spans for every request and SQL statement, exported over OTLP/HTTP when
 * the standard OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads the
 * OTEL_* variables itself). With no exporter, tracing is switched off: the
 * spans would go nowhere and cost ~12% per request. The platform's request
 * span is skipped whole then: with tracing off it still parses the URL and
 * copies the headers for a span that records nothing (a fifth of the CPU of
 * a request that needs no database).
 */
export const TracingLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const endpoint = yield* Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT"))
    if (Option.isNone(endpoint)) {
      return Layer.merge(Layer.setTracerEnabled(false), Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true))
    }
    const serviceName = yield* Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("training-knowledge-service"))
    yield* Effect.logInfo(`tracing: exporting spans over OTLP to ${endpoint.value}`)
    return tracingWith(new BatchSpanProcessor(new OTLPTraceExporter()), serviceName)
  })
)

/**
 * The tracer provider for a given span processor (tests pass an in-memory
 * one), with the span rules of ./span-rules.ts (no credentials in URLs, no
 * exceptions for expected client errors, OpenTelemetry's HTTP and database
 * conventions) and the request span's name before routing.
 */
export const tracingWith = (processor: SpanProcessor, serviceName = "training-knowledge-service") =>
  Layer.unwrapEffect(Effect.map(Effect.tracer, (tracer) => Layer.setTracer(withSpanRules(tracer)))).pipe(
    Layer.provideMerge(NodeSdk.layer(() => ({ resource: { serviceName, serviceVersion: "1.0.0" }, spanProcessor: processor }))),
    Layer.merge(Layer.succeed(HttpMiddleware.SpanNameGenerator, serverSpanName))
  )
