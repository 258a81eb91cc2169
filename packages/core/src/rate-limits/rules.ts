import { Config } from "effect"
import type { RateLimitWindow, TooManyRequests } from "@tks/domain/rate-limit"

/**
 * A named limit: at most `limit` units per window, in every one of its
 * windows at once. `name` is the rule's key in the counters table, so two
 * rules with the same name share counts (review submissions are one
 * count across both document endpoints and the tools).
 *
 * Windows are fixed and aligned to the epoch; where a rule has several, each
 * must be a whole multiple of the shorter ones (a minute inside an hour), so
 * a short window never straddles a long one's boundary.
 */
export interface RateLimitRule {
  readonly name: string
  readonly windows: ReadonlyArray<RateLimitWindow>
  /** The 429's `code`; RATE_LIMITED when absent. */
  readonly code?: TooManyRequests["code"]
  /** The 429's `message`; a generic sentence naming the retry delay when absent. */
  readonly message?: string
}

/** A rule, checked once where it is declared: a malformed rule is a programming error. */
export const defineRule = (rule: RateLimitRule): RateLimitRule => {
  const problem = ruleProblem(rule)
  if (problem !== undefined) throw new Error(`Rate-limit rule ${JSON.stringify(rule.name)}: ${problem}`)
  return rule
}

const isPositiveInt = (n: number) => Number.isSafeInteger(n) && n > 0

const ruleProblem = (rule: RateLimitRule): string | undefined => {
  if (!/^[a-z0-9][a-z0-9:-]*$/.test(rule.name)) return "the name must be lower-case letters, digits, '-' or ':'"
  if (rule.windows.length === 0) return "it needs at least one window"
  if (!rule.windows.every((w) => isPositiveInt(w.seconds) && isPositiveInt(w.limit))) {
    return "window lengths and limits must be positive integers"
  }
  const sorted = [...rule.windows].sort((a, b) => a.seconds - b.seconds)
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.seconds % sorted[i - 1]!.seconds !== 0) return "each window must be a whole multiple of the shorter ones"
  }
  return undefined
}

/** The name of the default limit every authenticated /v1 request counts against, per access token. */
const REQUESTS_PER_TOKEN = "requests"

/**
 * RATE_LIMIT_PER_MINUTE: requests one access token may make per minute, over
 * all server processes (default 600: ten a second, far above what a person's
 * client sends, low enough to stop a runaway script).
 */
export const RequestsPerMinute = Config.integer("RATE_LIMIT_PER_MINUTE").pipe(
  Config.withDefault(600),
  Config.validate({ message: "RATE_LIMIT_PER_MINUTE must be a whole number from 1", validation: (n) => n >= 1 })
)

const perMinute = (limit: number): RateLimitWindow => ({ seconds: 60, limit })

/**
 * The default limit at RATE_LIMIT_PER_MINUTE, counted by the statement that
 * authenticates the request (see Authenticator).
 */
export const requestsPerToken = (limit: number) =>
  defineRule({ name: REQUESTS_PER_TOKEN, windows: [perMinute(limit)], message: "Too many requests for this access token" })
const perHour = (limit: number): RateLimitWindow => ({ seconds: 3600, limit })

/**
 * The limits the contract names (docs/domain.md, Limits), for the endpoints
 * and tools to consume with the subject they are counted by (connection =
 * access token).
 */
export const SpecRules = {
  /** GET /v1/people/{id}/learning-queue and GET /v1/me/learning-queue, per token. */
  learningQueue: defineRule({ name: "learning-queue", windows: [perMinute(20)] }),
  /** Each other assigning-training route or tool, per token; name it per route (`assigning:<route>`). */
  assigning: (route: string) => defineRule({ name: `assigning:${route}`, windows: [perMinute(30), perHour(300)] }),
  /** Contributions that go to review, per person, shared by the document endpoints and tools. */
  reviewSubmissions: defineRule({
    name: "review-submissions",
    windows: [perMinute(3), perHour(20)],
    code: "REVIEW_SUBMISSION_LIMIT_REACHED",
    message: "Review-submission allowance used; nothing was created"
  }),
  /**
   * Narration requests per access token: 20 in any 10 seconds and 300 an
   * hour (the contract names no numbers). Enough for a reader narrating paragraph
   * after paragraph, or spending the month's allowance in a few minutes;
   * a burst past it is "too many requests too quickly", which the narration
   * service answers as a 429 without a code (NarrationTooQuick).
   */
  narration: defineRule({
    name: "narration",
    windows: [{ seconds: 10, limit: 20 }, perHour(300)],
    message: "Too many narration requests from this access token too quickly"
  })
} as const
