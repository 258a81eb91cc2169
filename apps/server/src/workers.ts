import { hostname } from "node:os"
import { randomBytes } from "node:crypto"
import { Config, Effect, Layer } from "effect"
import { JobWorkersLive, type WorkerSettings } from "@tks/core/jobs/worker"
import { notificationDeliveryJob } from "@tks/core/notifications/delivery"
import { contentProcessingJob } from "@tks/core/processing/job"
import { popQuizPreparationJob } from "@tks/core/pop-quizzes/preparation"
import { ContentProcessor } from "@tks/core/processing/processor"
import { quizPreparationJob } from "@tks/core/quizzes/job"
import { webhookBatchJob } from "@tks/core/webhooks/deliver-batch-job"
import { webhookDeliveryJob } from "@tks/core/webhooks/delivery"
import { webhookFanoutJob } from "@tks/core/webhooks/fanout-job"
import { integer, setting } from "./config.js"

const flags: Record<string, boolean> = { true: true, yes: true, on: true, "1": true, false: false, no: false, off: false, "0": false }

export interface WorkerConfig extends WorkerSettings {
  /** WORKERS: whether the server process runs workers (a standalone worker always does). */
  readonly enabled: boolean
  /** WORKER_STAGE_DELAY_MS: a pause before each processing stage, to make jobs slow on purpose (debugging, the kill test). */
  readonly stageDelayMs: number
  /** WEBHOOK_WORKER_CONCURRENCY: webhook jobs one process runs at once, beside the others. */
  readonly webhookConcurrency: number
}

/**
 * The background workers' settings (README "Configuration"):
 * WORKERS (default true; `0`/`false` turns them off in the server process),
 * WORKER_CONCURRENCY (2), WORKER_POLL_MS (1000), WORKER_LEASE_MS (30000),
 * WORKER_RETRY_BASE_MS (5000: the first retry's wait, doubling after),
 * WORKER_STAGE_DELAY_MS (0), WEBHOOK_WORKER_CONCURRENCY (16), WORKER_ID (default host:pid:random; names this
 * process in `jobs.lease_owner`).
 */
export const WorkerConfig: Config.Config<WorkerConfig> = Config.all({
  enabled: setting("WORKERS", "true or false (or 1/0)", (text) => flags[text.trim().toLowerCase()]).pipe(Config.withDefault(true)),
  concurrency: setting("WORKER_CONCURRENCY", "a whole number of at least 1", integer(1)).pipe(Config.withDefault(2)),
  pollMs: setting("WORKER_POLL_MS", "milliseconds, at least 10", integer(10)).pipe(Config.withDefault(1_000)),
  leaseMs: setting("WORKER_LEASE_MS", "milliseconds, at least 100", integer(100)).pipe(Config.withDefault(30_000)),
  retryBaseMs: setting("WORKER_RETRY_BASE_MS", "milliseconds", integer(0)).pipe(Config.withDefault(5_000)),
  stageDelayMs: setting("WORKER_STAGE_DELAY_MS", "milliseconds", integer(0)).pipe(Config.withDefault(0)),
  webhookConcurrency: setting("WEBHOOK_WORKER_CONCURRENCY", "a whole number of at least 1", integer(1)).pipe(Config.withDefault(16)),
  owner: Config.nonEmptyString("WORKER_ID").pipe(
    Config.withDefault(`${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`)
  )
})

/**
 * The job workers of this process: content processing (issue 6), quiz
 * preparation, writing each pop-quiz recipient's questions and notification
 * delivery (issue 8), with the concurrency, leases and backoff of `config`;
 * and beside them a pool of their own for webhooks (queueing an act's
 * deliveries, sending them in batches, each retry). Webhook jobs wait on other servers, up to
 * 10 s each: in the shared pool a slow receiver would hold up quizzes and
 * email, and a bulk act's 40,000 jobs would hold up its webhooks. Needs the
 * database, a KnowledgeExtractor, a QuestionGenerator, a MailSender, an
 * SmsSender and a WebhookSender.
 */
export const workersLayer = (config: WorkerConfig) =>
  Layer.unwrapEffect(
    Effect.all([
      Effect.all([contentProcessingJob({ stageDelayMs: config.stageDelayMs }), quizPreparationJob, popQuizPreparationJob, notificationDeliveryJob]),
      Effect.all([webhookFanoutJob, webhookBatchJob({ retryBaseMs: config.retryBaseMs }), webhookDeliveryJob({ retryBaseMs: config.retryBaseMs })])
    ]).pipe(Effect.map(([general, webhooks]) =>
      Layer.merge(
        JobWorkersLive(config, general),
        JobWorkersLive({ ...config, owner: `${config.owner}/webhooks`, concurrency: config.webhookConcurrency }, webhooks)
      )
    ))
  ).pipe(Layer.provide(ContentProcessor.Default))
