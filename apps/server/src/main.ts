import { HttpLayerRouter } from "@effect/platform"
import { NodeContext, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Option } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { CoreLive } from "@tks/core/live"
import { DatabaseLive } from "@tks/db/client"
import { DatabaseHealth } from "@tks/db/health"
import { EmbeddedMaintenanceLive } from "@tks/db/maintenance"
import { MigrationsLive } from "@tks/db/migrate"
import { AdaptersLive } from "./adapters.js"
import { accessLog } from "./http/access-log.js"
import { createHttpServer, requestsInFlight } from "./http/node-server.js"
import { HttpRoutes } from "./http/routes.js"
import { LoggingLive } from "./observability/logging.js"
import { MetricsLive } from "./observability/metrics.js"
import { DatabaseMetricsLive } from "./observability/metrics-database.js"
import { TracingLive } from "./observability/tracing.js"
import { banner } from "./startup/banner.js"
import { DemoSeedLive, DemoTokens } from "./startup/demo.js"
import { reportStartupFailure } from "./startup/failure.js"
import { preflight } from "./startup/preflight.js"
import { WorkerConfig, workersLayer } from "./workers.js"
import { withoutFiberMetrics } from "./observability/fiber-metrics.js"

/**
 * The composition root: one process serving HTTP over the database, with the
 * job workers (WORKERS=0 leaves them to `pnpm worker` processes); shuts down
 * cleanly on SIGINT/SIGTERM.
 */
const main = Effect.gen(function*() {
  const config = yield* preflight
  const workers = yield* WorkerConfig
  // Migrations run before any service touches the database.
  const Database = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))
  // The workers extract knowledge through the adapters below (KnowledgeExtractor).
  const Workers = workers.enabled ? workersLayer(workers) : Layer.empty
  const Services = Layer.mergeAll(DemoSeedLive(config.seedDemo), EmbeddedMaintenanceLive, Workers, DatabaseMetricsLive).pipe(
    Layer.provide(NodeContext.layer),
    Layer.provideMerge(Layer.mergeAll(CoreLive, DatabaseHealth.Default, FixtureImporter.Default)),
    Layer.provideMerge(AdaptersLive),
    Layer.provideMerge(Database),
    // First up, last down: the edge measures with it, and its last OTLP export follows everything else.
    Layer.provideMerge(MetricsLive)
  )
  // The listener opens only once every service is built: a request that
  // arrived before the router was attached would hang, not wait.
  const Server = HttpLayerRouter.serve(HttpRoutes, { disableListenLog: true, disableLogger: true, middleware: accessLog }).pipe(
    Layer.provide(NodeHttpServer.layer(createHttpServer, { port: config.port, host: config.host })),
    Layer.provideMerge(Services)
  )
  // Set when the shutdown begins: what the last line says was drained.
  let shutdown: { readonly at: number; readonly inFlight: number } | undefined
  return yield* Effect.gen(function*() {
    const tokens = yield* DemoTokens
    const url = Option.getOrElse(config.publicUrl, () => `http://localhost:${config.port}`)
    // stderr: stdout carries only log lines (all JSON with LOG_FORMAT=json).
    yield* Console.error(banner(url, tokens, { production: config.production }))
    yield* Effect.logInfo("service started").pipe(Effect.annotateLogs({
      url,
      host: config.host,
      port: config.port,
      workers: workers.enabled ? workers.concurrency : 0
    }))
    return yield* Effect.never
  }).pipe(
    // Runs first on SIGTERM/SIGINT, before the listener closes and the workers stop.
    Effect.onInterrupt(() =>
      Effect.suspend(() => {
        shutdown = { at: Date.now(), inFlight: requestsInFlight() }
        return Effect.logInfo("shutting down: the listener closes, requests in flight finish, running jobs are handed back")
          .pipe(Effect.annotateLogs({ requestsInFlight: shutdown.inFlight }))
      })
    ),
    Effect.provide(Server),
    Effect.onExit(() =>
      Effect.suspend(() => {
        if (shutdown === undefined) return Effect.void
        const left = requestsInFlight()
        return Effect.logInfo("stopped").pipe(Effect.annotateLogs({
          requestsDrained: shutdown.inFlight - left,
          requestsCut: left,
          shutdownMs: Date.now() - shutdown.at
        }))
      })
    )
  )
})

main.pipe(
  // Logging first, so the tracing layer's own start-up line is already formatted.
  Effect.provide(TracingLive.pipe(Layer.provideMerge(LoggingLive))),
  // A failed start is one line on stderr and exit code 1 (runMain's).
  Effect.tapErrorCause(reportStartupFailure),
  withoutFiberMetrics,
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
