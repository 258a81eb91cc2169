import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Metrics as EffectMetrics, Resource } from "@effect/opentelemetry"
import type { Meter } from "@opentelemetry/api"
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import { resourceFromAttributes } from "@opentelemetry/resources"
import { MeterProvider, type MetricProducer, type MetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions"
import { Config, Context, Duration, Effect, Layer, Option } from "effect"
import { HostConfig, integer, portSetting, setting } from "../config.js"
import { genericErrorBody } from "../http/error-response.js"
import { describeListenError, field, PortUnavailable } from "../startup/port.js"

const METRICS_PATH = "/metrics"

/**
 * METRICS_PORT (off by default): serve /metrics in the Prometheus text
 * format on this port, on its own listener, never the API's. METRICS_HOST
 * (default HOST) is the address it binds. OTEL_EXPORTER_OTLP_ENDPOINT:
 * export over OTLP/HTTP every OTEL_METRIC_EXPORT_INTERVAL ms (default
 * 60000), as tracing does to the same collector.
 */
export const MetricsConfig = Config.all({
  port: Config.option(portSetting("METRICS_PORT")),
  host: Config.nonEmptyString("METRICS_HOST").pipe(Config.orElse(() => HostConfig)),
  otlpEndpoint: Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT")),
  exportIntervalMs: setting("OTEL_METRIC_EXPORT_INTERVAL", "milliseconds, at least 1", integer(1)).pipe(Config.withDefault(60_000)),
  serviceName: Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("training-knowledge-service"))
})

/**
 * Where the process's instruments are made: none when neither METRICS_PORT
 * nor OTEL_EXPORTER_OTLP_ENDPOINT is set. Whoever measures checks once, as
 * it is built, so an unmeasured process records nothing.
 */
export class Metrics extends Context.Tag("@tks/server/Metrics")<Metrics, { readonly meter: Option.Option<Meter> }>() {}

const answer = (response: ServerResponse, status: number, headers: Record<string, string> = {}) =>
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(genericErrorBody(status)))

const listenFailure = (cause: unknown, host: string, port: number) =>
  new PortUnavailable({
    message: field(cause, "code") === "EADDRINUSE"
      ? `METRICS_PORT ${port} is already in use (${host}:${port}): stop the process using it or set METRICS_PORT to a free port`
      : `cannot serve metrics on ${host}:${port}: ${describeListenError(cause, host, port) ?? String(cause)}`
  })

/**
 * The /metrics listener, for the scope. Ours rather than the exporter's own:
 * a port that cannot be bound stops the start with a sentence (the
 * exporter's server only logs it), and nothing but GET /metrics is served.
 */
const serveScrapes = (exporter: PrometheusExporter, host: string, port: number) =>
  Effect.acquireRelease(
    Effect.async<Server, PortUnavailable>((resume) => {
      const server = createServer((request: IncomingMessage, response: ServerResponse) => {
        const url = request.url ?? ""
        const mark = url.indexOf("?")
        if ((mark === -1 ? url : url.slice(0, mark)) !== METRICS_PATH) return answer(response, 404)
        if (request.method !== "GET" && request.method !== "HEAD") return answer(response, 405, { allow: "GET, HEAD" })
        exporter.getMetricsRequestHandler(request, response)
      })
      server.once("error", (cause) => resume(Effect.fail(listenFailure(cause, host, port))))
      server.listen({ host, port }, () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  )

export type MetricsSettings = Config.Config.Success<typeof MetricsConfig>

/**
 * The service's own Effect metrics (named `tks.…`, counted in core) of a
 * producer that reads every Effect metric: Effect also keeps its runtime's
 * fiber counts, which say nothing an operator of this service acts on.
 */
const ownMetrics = (producer: MetricProducer): MetricProducer => ({
  collect: (options) =>
    producer.collect(options).then((result) => ({
      ...result,
      resourceMetrics: {
        ...result.resourceMetrics,
        scopeMetrics: result.resourceMetrics.scopeMetrics.map((scope) => ({
          ...scope,
          metrics: scope.metrics.filter((metric) => metric.descriptor.name.startsWith("tks."))
        }))
      }
    }))
})

/**
 * The metrics of this process, per `settings`; off (no provider, nothing
 * recorded) when neither switch is set. The core's Effect counters (job
 * runs, rate-limit refusals) are read with the instruments made on the
 * meter. On shutdown the OTLP reader exports once more, so the last counts
 * are not lost.
 */
export const metricsWith = (settings: MetricsSettings) =>
  Layer.scoped(
    Metrics,
    Effect.gen(function*() {
      if (Option.isNone(settings.port) && Option.isNone(settings.otlpEndpoint)) return { meter: Option.none() }
      const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: "1.0.0" })
      const effectCounters = ownMetrics(yield* Effect.provideService(EffectMetrics.makeProducer, Resource.Resource, resource))
      const readers: Array<MetricReader> = []
      const prometheus = Option.map(settings.port, (port) => ({
        port,
        exporter: new PrometheusExporter({ preventServerStart: true, metricProducers: [effectCounters] })
      }))
      if (Option.isSome(prometheus)) readers.push(prometheus.value.exporter)
      if (Option.isSome(settings.otlpEndpoint)) {
        // The exporter reads the endpoint and the other OTEL_EXPORTER_OTLP_* variables itself.
        readers.push(
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter(),
            exportIntervalMillis: settings.exportIntervalMs,
            metricProducers: [effectCounters]
          })
        )
      }
      const provider = yield* Effect.acquireRelease(
        Effect.sync(() => new MeterProvider({ resource, readers })),
        (provider) =>
          Effect.tryPromise(() => provider.shutdown()).pipe(Effect.ignore, Effect.interruptible, Effect.timeoutOption(Duration.seconds(5)))
      )
      if (Option.isSome(prometheus)) {
        yield* serveScrapes(prometheus.value.exporter, settings.host, prometheus.value.port)
        yield* Effect.logInfo(`metrics: serving ${METRICS_PATH} on ${settings.host}:${prometheus.value.port}`)
      }
      if (Option.isSome(settings.otlpEndpoint)) yield* Effect.logInfo(`metrics: exporting over OTLP to ${settings.otlpEndpoint.value}`)
      return { meter: Option.some(provider.getMeter(settings.serviceName)) }
    })
  )

/** The metrics MetricsConfig asks for. */
export const MetricsLive = Layer.unwrapEffect(Effect.map(MetricsConfig, metricsWith))
