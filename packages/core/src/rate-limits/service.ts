import { Duration, Effect, Schedule } from "effect"
import { judge, type RateLimitDecision, type RateLimitWindow, TooManyRequests, type Verdict } from "@tks/domain/rate-limit"
import { LocalCounts } from "./local-counts.js"
import { RateLimitRepo } from "./repo.js"
import { REQUESTS_PER_TOKEN, type RateLimitRule, RequestsPerMinute } from "./rules.js"

/** Who a count is about: the organization first (every table is scoped by it), then the token, person, ... */
export interface RateLimitSubject {
  readonly organizationId: string
  readonly key: string
}

export interface RateLimiterSettings {
  /** The default limit of every authenticated request, per access token (60 s, RATE_LIMIT_PER_MINUTE). */
  readonly requests: RateLimitWindow
  /** How often local counts of the default limit are sent to the database. */
  readonly flushInterval: Duration.DurationInput
}

const refusal = (rule: Pick<RateLimitRule, "code" | "message">, verdict: Extract<Verdict, { _tag: "Refused" }>) =>
  new TooManyRequests({
    ...(rule.code === undefined ? {} : { code: rule.code }),
    message: rule.message ?? `Too many requests; retry in ${verdict.retryAfterSeconds} s`,
    limit: verdict.limit,
    retryAfterSeconds: verdict.retryAfterSeconds
  })

const granted = (rule: Pick<RateLimitRule, "code" | "message">, verdict: Verdict) =>
  verdict._tag === "Granted" ? Effect.succeed(verdict.decision) : Effect.fail(refusal(rule, verdict))

/**
 * Rate limits counted in PostgreSQL, shared by every server process, in two
 * modes over the same table:
 *
 * - `consume` is exact: one atomic statement counts and decides, for rules
 *   with one or several windows. A refused call counts in no window. For the
 *   limits SPEC 8 names.
 * - `hit` is the default limit of every authenticated request (per token per
 *   minute) and adds no round trip to the request: it decides from the
 *   shared count last read back plus what this process counted since, and a
 *   background fiber sends the local counts and reads back the shared ones in
 *   one statement every `flushInterval`. With one process it is exact. With
 *   N processes, a process deciding has seen the others' grants up to about
 *   two flush intervals ago (their flush, then its own), so a token gets past
 *   the limit by at most what the other N - 1 processes grant it in about two
 *   flush intervals, and never more than N times the limit in a window. E.g.
 *   a client sending 20 requests a second to each of 2 processes, 1 s
 *   flushes: at most about 40 past 600 in that minute. Counts only grow
 *   within a window, so a refusal is never wrong.
 */
export const makeRateLimiter = (settings: RateLimiterSettings) =>
  Effect.gen(function*() {
    const repo = yield* RateLimitRepo
    const requests = new LocalCounts(REQUESTS_PER_TOKEN, settings.requests.seconds, settings.requests.limit)
    const defaultRule = { message: "Too many requests for this access token" } as const
    // The database clock minus this process's, learned at each flush, so the
    // windows of `hit` start when the database's do.
    let clockOffsetMs = 0

    const consume = (rule: RateLimitRule, subject: RateLimitSubject, cost = 1) =>
      Effect.gen(function*() {
        const windows = rule.windows
        const key = { orgId: subject.organizationId, rule: rule.name, subject: subject.key }
        const tooBig = windows.find((w) => cost > w.limit)
        if (tooBig !== undefined) {
          // Never grantable: refuse without counting (retrying cannot help, but the window still bounds the retry).
          return yield* refusal(rule, { _tag: "Refused", limit: tooBig.limit, retryAfterSeconds: tooBig.seconds })
        }
        const row = yield* repo.consume(key, windows, cost)
        // Judged again from the counts the statement left, by the same rule, for the figures to report.
        const counts = windows.map((w, i) => ({ ...w, used: (row.hits[i] ?? 0) - (row.refused ? 0 : cost) }))
        return yield* granted(rule, judge(counts, cost, row.nowMs))
      })

    const hit = (subject: RateLimitSubject): Effect.Effect<RateLimitDecision, TooManyRequests> =>
      Effect.suspend(() => granted(defaultRule, requests.hit(subject.organizationId, subject.key, Date.now() + clockOffsetMs)))

    const lock = yield* Effect.makeSemaphore(1)

    /** Sends the local counts of `hit` and reads back the shared ones; a failed flush is retried next time. */
    const flush = lock.withPermits(1)(Effect.gen(function*() {
      const sentAt = Date.now()
      const batch = requests.takeBatch(sentAt + clockOffsetMs)
      if (batch.length === 0) return
      const totals = yield* repo.addCounts(batch).pipe(Effect.tapError(() => Effect.sync(() => requests.restore(batch))))
      const first = totals[0]
      if (first !== undefined) clockOffsetMs = first.nowMs - (sentAt + Date.now()) / 2
      requests.settle(batch, totals)
    }))

    const flushQuietly = flush.pipe(Effect.catchAll((error) => Effect.logWarning("rate-limit counts not flushed; retrying", error)))
    // Housekeeping every second would fill traces with spans of no interest.
    yield* Effect.forkScoped(Effect.repeat(flushQuietly, Schedule.spaced(settings.flushInterval)).pipe(Effect.withTracerEnabled(false)))
    // Counts granted since the last flush still reach the other processes on a clean shutdown.
    yield* Effect.addFinalizer(() => flushQuietly)

    return { consume, hit, flush } as const
  })

export class RateLimiter extends Effect.Service<RateLimiter>()("@tks/core/RateLimiter", {
  scoped: Effect.flatMap(RequestsPerMinute, (limit) =>
    makeRateLimiter({ requests: { seconds: 60, limit }, flushInterval: Duration.seconds(1) })),
  dependencies: [RateLimitRepo.Default]
}) {}
