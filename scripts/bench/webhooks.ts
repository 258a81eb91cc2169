import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { assignEveryone } from "./assigning.js"
import { captureInto, type Statement } from "./capture.js"
import { freePort, startProcess } from "./compare-processes.js"
import { ms, table } from "./walk.js"

/**
 * Webhooks under a bulk act: a lesson assigned to everyone while one
 * endpoint is subscribed to `enrollment.created` (every new enrollee is an
 * event, and a delivery, written in the act's transaction), against the
 * same act without a subscriber earlier in the run; then how fast the
 * deliveries drain to a receiver on loopback (its own process, answering
 * 204 at once). The budget: the act within 1.5x of the act without, and
 * deliveries at 200 a second or more.
 */
export interface WebhookBenchInput {
  readonly base: string
  /** An organization admin's token with training:assign. */
  readonly token: string
  /** A lesson nobody has yet. */
  readonly lessonId: string
  /** The same act's time without a subscriber, in this run. */
  readonly baselineMs: number
  readonly progress: (message: string) => void
}

const ACT_BUDGET = 1.5
const DRAIN_BUDGET_PER_SECOND = 200
const DRAIN_LIMIT_MS = 600_000

interface Stats {
  readonly deliveries: number
  readonly distinct: number
  readonly first: number
  readonly last: number
}

/** Statements grouped by their text, the costliest in total first. */
const costliest = (statements: ReadonlyArray<Statement>, count: number): Array<Array<string>> => {
  const byText = new Map<string, { calls: number; ms: number }>()
  for (const statement of statements) {
    const text = statement.text.trim().replace(/\s+/g, " ").slice(0, 90)
    const seen = byText.get(text) ?? { calls: 0, ms: 0 }
    seen.calls++
    seen.ms += statement.ms
    byText.set(text, seen)
  }
  return [...byText.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, count)
    .map(([text, { calls, ms: total }]) => [String(calls), ms(total), (total / calls).toFixed(2), text])
}

export const webhookBench = async (input: WebhookBenchInput): Promise<Array<string>> => {
  const port = await freePort()
  const receiver = await startProcess(
    "webhook receiver",
    ["--import", "tsx", "scripts/bench/webhook-receiver.ts"],
    { PORT: String(port) },
    port,
    join(tmpdir(), `tks-bench-receiver-${process.pid}.log`)
  )
  try {
    const created = await fetch(`${input.base}/v1/webhook-endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${input.token}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/hooks`, eventTypes: ["enrollment.created"], description: "bench receiver" })
    })
    if (created.status !== 201) throw new Error(`creating the endpoint answered ${created.status}: ${await created.text()}`)
    input.progress("assigning a second lesson to everyone, with an endpoint subscribed to enrollment.created")
    const act = await assignEveryone(input, 30)
    const actEnded = Date.now()
    input.progress(`assigned ${act.assigned} people in ${ms(act.ms)} ms; waiting for the deliveries`)

    // What the server's SQL did while the deliveries drained (every job's statements, the webhooks' and the others').
    const drained: Array<Statement> = []
    captureInto(drained, { params: false })
    const stats = async () => (await (await fetch(`${receiver.url}/stats`)).json()) as Stats
    let seen = await stats()
    const started = performance.now()
    let reported = 0
    while (seen.distinct < act.assigned && performance.now() - started < DRAIN_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      seen = await stats()
      if (seen.distinct - reported >= 5000) {
        reported = seen.distinct
        input.progress(`${seen.distinct} of ${act.assigned} delivered`)
      }
    }
    captureInto(null)
    const drainedMs = seen.last - actEnded
    const perSecond = seen.distinct / Math.max(1, drainedMs / 1000)
    const steady = seen.distinct / Math.max(1, (seen.last - seen.first) / 1000)
    const ratio = act.ms / input.baselineMs
    return [
      `\nwebhooks: a lesson assigned to everyone with one endpoint subscribed to enrollment.created, deliveries to a receiver on loopback (its own process):\n`,
      table(
        ["measure", "value"],
        [
          ["the act without a subscriber (first lesson, above)", `${ms(input.baselineMs)} ms`],
          ["the act with one subscribed endpoint", `${ms(act.ms)} ms (${ratio.toFixed(2)}x, budget ${ACT_BUDGET}x)`],
          ["events delivered / expected", `${seen.distinct} / ${act.assigned} (${seen.deliveries - seen.distinct} repeats)`],
          ...(seen.deliveries === 0
            ? [["deliveries", `none arrived in ${DRAIN_LIMIT_MS / 1000} s`]]
            : [
              ["from the act's answer to the last delivery", `${ms(drainedMs)} ms: ${perSecond.toFixed(0)} deliveries/s`],
              ["from the first delivery to the last", `${steady.toFixed(0)} deliveries/s`]
            ])
        ]
      ),
      `\nthe statements that took the most database time while they drained (${drained.length} statements in all):\n`,
      table(["calls", "total ms", "mean ms", "statement"], costliest(drained, 10)),
      ratio <= ACT_BUDGET ? `the act is within its budget (${ratio.toFixed(2)}x <= ${ACT_BUDGET}x)` : `WARNING: the act is over its budget (${ratio.toFixed(2)}x > ${ACT_BUDGET}x)`,
      seen.distinct < act.assigned
        ? `WARNING: ${act.assigned - seen.distinct} deliveries had not arrived after ${DRAIN_LIMIT_MS / 1000} s`
        : perSecond >= DRAIN_BUDGET_PER_SECOND
        ? `deliveries drained within their budget (${perSecond.toFixed(0)}/s >= ${DRAIN_BUDGET_PER_SECOND}/s)`
        : `WARNING: deliveries drained below their budget (${perSecond.toFixed(0)}/s < ${DRAIN_BUDGET_PER_SECOND}/s)`
    ]
  } finally {
    await receiver.stop()
  }
}
