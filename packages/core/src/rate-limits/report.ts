import type { Effect } from "effect"
import type { RateLimitDecision } from "@tks/domain/rate-limit"

/**
 * How a transport reports a rate-limit check to its caller: HTTP adds the
 * `RateLimit-*` headers, and `Retry-After` to a refusal. The check itself is
 * the service's.
 */
export type ReportLimit = <E, R>(check: Effect.Effect<RateLimitDecision, E, R>) => Effect.Effect<RateLimitDecision, E, R>

export const reportNothing: ReportLimit = (check) => check
