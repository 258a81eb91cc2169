import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * Rate limits count calls in fixed windows aligned to the Unix epoch (a
 * 60-second window starts on every whole minute), in the database's clock,
 * so every server process puts a call in the same window.
 */

/** The stable code of a plain rate-limit 429; rules may answer with their own (e.g. REVIEW_SUBMISSION_LIMIT_REACHED). */
export const RATE_LIMITED = "RATE_LIMITED" as const

/** What every 429 body says besides its `code`: why, the limit, and when to retry. */
export const refusalFields = {
  message: Schema.String,
  /** The limit that refused the call, in calls (or the rule's unit) per window. */
  limit: Schema.Int,
  /** Whole seconds until that window ends; also sent as `Retry-After`. */
  retryAfterSeconds: Schema.Int
}

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  {
    /** RATE_LIMITED, or the limit's own code (REVIEW_SUBMISSION_LIMIT_REACHED, NARRATION_QUOTA_EXCEEDED). */
    code: Schema.Literal(RATE_LIMITED, "REVIEW_SUBMISSION_LIMIT_REACHED", "NARRATION_QUOTA_EXCEEDED").pipe(
      Schema.propertySignature,
      Schema.withConstructorDefault(() => RATE_LIMITED)
    ),
    ...refusalFields
  },
  HttpApiSchema.annotations({
    status: 429,
    description:
      "Over a rate limit or allowance. `Retry-After` (and `retryAfterSeconds`) says in how many seconds to retry; nothing was done or counted. `code` is RATE_LIMITED or the limit's own (REVIEW_SUBMISSION_LIMIT_REACHED, NARRATION_QUOTA_EXCEEDED)."
  })
) {}

/** One window of a rule: at most `limit` units per `seconds`. */
export interface RateLimitWindow {
  readonly seconds: number
  readonly limit: number
}

/** What a granted call may tell its caller (the `RateLimit-*` headers). */
export interface RateLimitDecision {
  readonly limit: number
  readonly remaining: number
  /** Whole seconds until the window the figures are about ends. */
  readonly resetSeconds: number
}

/** A window's count as of a call: `used` units already counted in it, before this call. */
export interface WindowCount extends RateLimitWindow {
  readonly used: number
}

/** The start, in epoch seconds, of the window of `seconds` holding the instant `epochMs`. */
export const windowStart = (epochMs: number, seconds: number) => Math.floor(epochMs / 1000 / seconds) * seconds

/** Whole seconds (at least 1) from `epochMs` until the window of `seconds` holding it ends. */
export const secondsUntilReset = (epochMs: number, seconds: number) =>
  Math.max(1, Math.ceil((windowStart(epochMs, seconds) + seconds) - epochMs / 1000))

export type Verdict =
  | { readonly _tag: "Granted"; readonly decision: RateLimitDecision }
  | { readonly _tag: "Refused"; readonly limit: number; readonly retryAfterSeconds: number }

/**
 * Whether `cost` more units fit in every window. Granted: the figures of the
 * window closest to running out (the tightest, as RateLimit-* headers
 * report). Refused: the full window that frees up last, since a retry needs
 * every window to have room.
 */
export const judge = (windows: ReadonlyArray<WindowCount>, cost: number, epochMs: number): Verdict => {
  const full = windows.filter((w) => w.used + cost > w.limit)
  if (full.length > 0) {
    const last = full
      .map((w) => ({ limit: w.limit, retryAfterSeconds: secondsUntilReset(epochMs, w.seconds) }))
      .reduce((a, b) => (b.retryAfterSeconds > a.retryAfterSeconds ? b : a))
    return { _tag: "Refused", ...last }
  }
  const decision = windows
    .map((w): RateLimitDecision => ({
      limit: w.limit,
      remaining: w.limit - w.used - cost,
      resetSeconds: secondsUntilReset(epochMs, w.seconds)
    }))
    .reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds > a.resetSeconds) ? b : a))
  return { _tag: "Granted", decision }
}

/**
 * An act's answer with the figures of the allowance it counted against
 * (null when it counted none), for the transport to report: HTTP sends them
 * as `RateLimit-*` headers.
 */
export interface Counted<A> {
  readonly answer: A
  readonly allowance: RateLimitDecision | null
}
