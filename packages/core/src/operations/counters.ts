import { Metric } from "effect"

/**
 * The counters core keeps for the operator (Effect metrics: the server
 * exports them over OTLP or /metrics when metrics are on; otherwise they are
 * a map entry per kind and outcome, counted on events that are rare next to
 * requests).
 */
const jobRuns = Metric.counter("tks.jobs.runs", { description: "Job runs that ended, by kind and outcome", incremental: true })

const refusals = Metric.counter("tks.rate_limit.refusals", {
  description: "Calls refused for a rate limit or allowance (429), by rule",
  incremental: true
})

/**
 * How a job run ended: done; failed and scheduled again; failed for good;
 * its lease was taken over (the new holder decides); or its outcome could
 * not be written (the lease lapses and another worker takes it).
 */
type JobRunOutcome = "completed" | "retrying" | "failed" | "lost" | "unrecorded"

export const countJobRun = (kind: string, outcome: JobRunOutcome) =>
  Metric.increment(Metric.tagged(Metric.tagged(jobRuns, "kind", kind), "outcome", outcome))

/** A refused call, by the rule's name (rules.ts) or `narration-quota` for the monthly narration allowance. */
export const countRefusal = (rule: string) => Metric.increment(Metric.tagged(refusals, "rule", rule))
