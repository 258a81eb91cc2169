import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { type Counted, type RateLimitDecision, TooManyRequests } from "@tks/domain/rate-limit"

const REMAINING = "ratelimit-remaining"

/** The `RateLimit-*` headers of a granted call. */
export const decisionHeaders = (decision: RateLimitDecision) => ({
  "ratelimit-limit": String(decision.limit),
  [REMAINING]: String(decision.remaining),
  "ratelimit-reset": String(decision.resetSeconds)
})

/**
 * A granted call's `RateLimit-*` headers. When several limits apply to one
 * request (the default per-token one, then an endpoint's own), the response
 * reports the one with the fewest calls left.
 */
const reportDecision = (decision: RateLimitDecision) =>
  HttpApp.appendPreResponseHandler((_request, response) => {
    const reported = Number(response.headers[REMAINING] ?? Number.POSITIVE_INFINITY)
    return Effect.succeed(decision.remaining < reported ? HttpServerResponse.setHeaders(response, decisionHeaders(decision)) : response)
  })

/** What every 429 carries, whichever error class answers it. */
interface Refusal {
  readonly limit: number
  readonly retryAfterSeconds: number
}

/** A refusal's `Retry-After` and `RateLimit-*` headers. */
export const refusalHeaders = (error: Refusal) => ({
  "retry-after": String(error.retryAfterSeconds),
  ...decisionHeaders({ limit: error.limit, remaining: 0, resetSeconds: error.retryAfterSeconds })
})

/** A refusal's headers on the response; error schemas carry no headers. */
const reportRefusal = (error: Refusal) =>
  HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, refusalHeaders(error))))

/**
 * Puts a rate-limit check's outcome on the response: the `RateLimit-*`
 * headers when granted, `Retry-After` too when refused (the 429 body is the
 * TooManyRequests error itself). Wraps the route limits the edge counts.
 */
export const withRateLimitHeaders = <E, R>(check: Effect.Effect<RateLimitDecision, E, R>) =>
  check.pipe(
    Effect.tap(reportDecision),
    Effect.tapError((error) => (error instanceof TooManyRequests ? reportRefusal(error) : Effect.void))
  )

/**
 * Authentication, which counts every authenticated /v1 request against the
 * token's default limit (RATE_LIMIT_PER_MINUTE), with that count's headers
 * on the response.
 */
export const withPerTokenLimitHeaders = <A extends { readonly rateLimit: RateLimitDecision }, E, R>(
  authenticated: Effect.Effect<A, E, R>
) =>
  authenticated.pipe(
    Effect.tap(({ rateLimit }) => reportDecision(rateLimit)),
    Effect.tapError((error) => (error instanceof TooManyRequests ? reportRefusal(error) : Effect.void))
  )

/** A domain act's answer, with the `RateLimit-*` headers of the allowance it counted against, if any. */
export const withAllowanceHeaders = <A, E, R>(act: Effect.Effect<Counted<A>, E, R>) =>
  Effect.flatMap(act, ({ allowance, answer }) => (allowance === null ? Effect.succeed(answer) : Effect.as(reportDecision(allowance), answer)))

const refusalTags: ReadonlySet<string> = new Set(["TooManyRequests", "NarrationTooQuick"])

const isRefusal = (error: unknown): error is Refusal =>
  typeof error === "object" && error !== null && "_tag" in error && refusalTags.has(error._tag as string)

/**
 * `Retry-After` and `RateLimit-*` on every 429 a handler answers (an act's
 * own allowance refused it: the review submissions, the narration burst or
 * month), in the one place every handler passes through.
 */
export const withRefusalHeaders = <A, E, R>(handler: Effect.Effect<A, E, R>) =>
  Effect.tapError(handler, (error) => (isRefusal(error) ? reportRefusal(error) : Effect.void))
