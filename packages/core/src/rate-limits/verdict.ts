import { Effect } from "effect"
import { judge, type RateLimitDecision, TooManyRequests, type Verdict } from "@tks/domain/rate-limit"
import { countRefusal } from "../operations/counters.js"
import type { Counted } from "./repo.js"
import type { RateLimitRule } from "@tks/domain/rate-limit-rules"

export const refusal = (rule: Pick<RateLimitRule, "code" | "message">, verdict: Extract<Verdict, { _tag: "Refused" }>) =>
  new TooManyRequests({
    ...(rule.code === undefined ? {} : { code: rule.code }),
    message: rule.message ?? `Too many requests; retry in ${verdict.retryAfterSeconds} s`,
    limit: verdict.limit,
    retryAfterSeconds: verdict.retryAfterSeconds
  })

/** The refusal, counted by the rule's name for the operator's metrics. */
export const refused = (rule: RateLimitRule, verdict: Extract<Verdict, { _tag: "Refused" }>) =>
  Effect.zipRight(countRefusal(rule.name), Effect.fail(refusal(rule, verdict)))

/**
 * The outcome of a counting statement as the caller sees it: judged again
 * from the counts it left, by the same rule, for the figures to report (the
 * statement already decided; a refused call was counted in no window).
 */
export const decided = (rule: RateLimitRule, cost: number, counted: Counted): Effect.Effect<RateLimitDecision, TooManyRequests> => {
  const counts = rule.windows.map((w, i) => ({ ...w, used: (counted.hits[i] ?? 0) - (counted.refused ? 0 : cost) }))
  const verdict = judge(counts, cost, counted.nowMs)
  return verdict._tag === "Granted" ? Effect.succeed(verdict.decision) : refused(rule, verdict)
}
