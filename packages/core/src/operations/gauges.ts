import { Effect } from "effect"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import type { JobKind } from "../jobs/repo.js"
import { OperationsRepo } from "./repo.js"

// Every kind the workers know, so a quiet queue reports 0 instead of vanishing.
const JOB_KINDS = Object.keys(
  {
    "content.process": true,
    "quiz.prepare": true,
    "pop-quiz.prepare": true,
    "notification.deliver": true,
    "webhook.fanout": true,
    "webhook.deliver-batch": true,
    "webhook.deliver": true
  } satisfies Record<JobKind, true>
)

interface QueueGauge {
  readonly kind: string
  readonly depth: number
  readonly oldestAgeSeconds: number
}

interface NarrationGauge {
  readonly organizationId: string
  readonly used: number
  readonly remaining: number
}

/** What the operator's gauges show, for the whole database (every process reads the same). */
interface OperatingReading {
  readonly queues: ReadonlyArray<QueueGauge>
  readonly outbox: { readonly pending: number; readonly lagSeconds: number }
  /** Organizations that narrated this month; any other has used 0 and has the whole allowance left. */
  readonly narration: ReadonlyArray<NarrationGauge>
}

/**
 * The backlog behind the service's metrics: job queues by kind, the
 * notifications outbox, and each organization's narration allowance this
 * month. Three short statements per reading; read when metrics are
 * collected (a scrape, an export), not per request.
 */
export class OperatingGauges extends Effect.Service<OperatingGauges>()("@tks/core/OperatingGauges", {
  effect: Effect.gen(function*() {
    const repo = yield* OperationsRepo

    const read = Effect.gen(function*() {
      const queues = yield* repo.queues
      const outbox = yield* repo.outbox
      const narration = yield* repo.narrationUse
      const byKind = new Map(queues.map((row) => [row.kind, row]))
      return {
        queues: [...new Set([...JOB_KINDS, ...byKind.keys()])].map((kind): QueueGauge => ({
          kind,
          depth: byKind.get(kind)?.depth ?? 0,
          oldestAgeSeconds: byKind.get(kind)?.oldest_age ?? 0
        })),
        outbox: { pending: outbox.pending, lagSeconds: outbox.lag },
        narration: narration.map((row): NarrationGauge => ({
          organizationId: row.org_id,
          used: row.used,
          remaining: Math.max(0, narrationMonthlyAllowance - row.used)
        }))
      } satisfies OperatingReading
    })

    return { read } as const
  }),
  dependencies: [OperationsRepo.Default]
}) {}
