import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { DatabaseConfig } from "@tks/db/config"
import { DatabaseLive } from "@tks/db/client"
import { EmbeddedMaintenanceLive } from "@tks/db/maintenance"
import { MigrationsLive } from "@tks/db/migrate"
import { KnowledgeExtractorLive } from "@tks/adapters/extraction/live"
import { MailSenderLive } from "@tks/adapters/mail/live"
import { QuestionGeneratorLive } from "@tks/adapters/questions/live"
import { SmsSenderLive } from "@tks/adapters/sms/live"
import { WebhookSenderLive } from "@tks/adapters/webhooks/sender"
import { LoggingLive } from "./observability/logging.js"
import { MetricsLive } from "./observability/metrics.js"
import { DatabaseMetricsLive } from "./observability/metrics-database.js"
import { TracingLive } from "./observability/tracing.js"
import { reportStartupFailure } from "./startup/failure.js"
import { WorkerConfig, workersLayer } from "./workers.js"
import { withoutFiberMetrics } from "./observability/fiber-metrics.js"

/**
 * `pnpm worker`: job workers alone, no HTTP, on the same database as the
 * servers (DATABASE_URL; without it the embedded database in DATA_DIR, which
 * only one process can open, so not while a server uses it). Any number of
 * these and of servers share the work. SIGINT/SIGTERM give running jobs back.
 */
const main = Effect.gen(function*() {
  const config = yield* WorkerConfig
  yield* DatabaseConfig
  const Database = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))
  const Workers = Layer.mergeAll(workersLayer(config), EmbeddedMaintenanceLive, DatabaseMetricsLive).pipe(
    Layer.provide(Layer.mergeAll(KnowledgeExtractorLive, QuestionGeneratorLive, MailSenderLive, SmsSenderLive, WebhookSenderLive)),
    Layer.provide(Database),
    Layer.provide(MetricsLive)
  )
  yield* Effect.logInfo("worker process started").pipe(Effect.annotateLogs({ owner: config.owner }))
  return yield* Layer.launch(Workers)
})

main.pipe(
  Effect.provide(TracingLive.pipe(Layer.provideMerge(LoggingLive))),
  Effect.tapErrorCause(reportStartupFailure),
  withoutFiberMetrics,
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
