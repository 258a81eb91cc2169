import { Effect } from "effect"
import { RateLimitRepo } from "./repo.js"
import type { RateLimitRule } from "@tks/domain/rate-limit-rules"
import { decided, refused } from "./verdict.js"

/** Who a count is about: the organization first (every table is scoped by it), then the token, person, ... */
interface RateLimitSubject {
  readonly organizationId: string
  readonly key: string
}

/**
 * Rate limits counted in PostgreSQL, shared by every server process: one
 * atomic statement counts and decides, for rules with one or several
 * windows, so in any interleaving of calls from any number of processes
 * exactly as many are granted as the limit allows. A refused call counts in
 * no window. The default per-token limit of every request is counted by
 * the same statement inside authentication (Authenticator), at no extra
 * round trip; `consume` is for the per-route limits (rules.ts).
 */
export const makeRateLimiter = Effect.gen(function*() {
  const repo = yield* RateLimitRepo

  const consume = (rule: RateLimitRule, subject: RateLimitSubject, cost = 1) =>
    Effect.gen(function*() {
      const tooBig = rule.windows.find((w) => cost > w.limit)
      if (tooBig !== undefined) {
        // Never grantable: refuse without counting (retrying cannot help, but the window still bounds the retry).
        return yield* refused(rule, { _tag: "Refused", limit: tooBig.limit, retryAfterSeconds: tooBig.seconds })
      }
      const counted = yield* repo.consume({ orgId: subject.organizationId, rule: rule.name, subject: subject.key }, rule.windows, cost)
      return yield* decided(rule, cost, counted)
    })

  return { consume } as const
})

export class RateLimiter extends Effect.Service<RateLimiter>()("@tks/core/RateLimiter", {
  effect: makeRateLimiter,
  dependencies: [RateLimitRepo.Default]
}) {}
