import type { RateLimitWindow, TooManyRequests } from "./rate-limit.js"

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

export const perMinute = (limit: number): RateLimitWindow => ({ seconds: 60, limit })
const perHour = (limit: number): RateLimitWindow => ({ seconds: 3600, limit })

/** Each assigning-training act is counted on its own: 30 a minute and 300 an hour per access token. */
const assigning = (route: string) => defineRule({ name: `assigning:${route}`, windows: [perMinute(30), perHour(300)] })

/**
 * Route limits: a call to one of these operations counts against its rule
 * per access token, once its policy has passed and before anything is done
 * (a refused call does nothing). Each transport declares them on its
 * operations, as it declares policies, and counts them in its one
 * authorization step; the domain services never see them. An operation
 * that several transports offer (an HTTP endpoint and a tool) names the same
 * rule, so both are held to the same numbers.
 */
export const routeLimits = {
  /** Both learning-queue reads share one count: 20 a minute. */
  learningQueue: defineRule({ name: "learning-queue", windows: [perMinute(20)] }),
  assigning: {
    assign: assigning("assignments"),
    unassign: assigning("unassign"),
    retrainingPolicy: assigning("retraining-policy"),
    knowledgeObligation: assigning("knowledge-obligations"),
    retrainingAssignment: assigning("retraining-assignments"),
    waive: assigning("waive"),
    cancel: assigning("cancel"),
    dueDate: assigning("due-date"),
    confirmReview: assigning("confirm-review"),
    popQuiz: assigning("pop-quizzes")
  }
} as const

/**
 * Allowances an act checks itself, because whether and how much it counts
 * depends on what the act does: a contribution counts only when it goes to
 * review, and narration counts its burst limit before reserving characters.
 * The service returns the granted figures with its answer; a transport
 * reports them.
 */
export const actLimits = {
  /** Contributions that go to review, per person, shared by the document endpoints and tools. */
  reviewSubmissions: defineRule({
    name: "review-submissions",
    windows: [perMinute(3), perHour(20)],
    code: "REVIEW_SUBMISSION_LIMIT_REACHED",
    message: "Review-submission allowance used; nothing was created"
  }),
  /**
   * Narration requests per access token: 20 in any 10 seconds and 300 an
   * hour. Enough for a reader narrating paragraph after paragraph, or
   * spending the month's allowance in a few minutes; a burst past it is "too
   * many requests too quickly", a 429 without a code (NarrationTooQuick).
   */
  narration: defineRule({
    name: "narration",
    windows: [{ seconds: 10, limit: 20 }, perHour(300)],
    message: "Too many narration requests from this access token too quickly"
  })
} as const

/** What OpenAPI shows of a rule (`x-rate-limit`): its windows, counted per access token. */
export const describeRule = (rule: RateLimitRule) => ({
  name: rule.name,
  per: "access-token",
  windows: rule.windows.map((w) => ({ seconds: w.seconds, limit: w.limit }))
})

/**
 * Requests one directory connection may make to /scim/v2: 1,200 a minute
 * (20 a second; a directory's first full sync of 20,000 people takes
 * under 20 minutes) and 36,000 an hour. Over it, 429 with Retry-After,
 * which Entra ID and Okta both honour.
 */
export const directoryRequests = defineRule({
  name: "scim",
  windows: [perMinute(1_200), perHour(36_000)],
  message: "Too many requests from this directory connection"
})
