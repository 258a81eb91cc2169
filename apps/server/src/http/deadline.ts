import type { HttpServerResponse } from "@effect/platform"
import { Config, Duration } from "effect"
import { errorResponse } from "./error-response.js"

const REQUEST_TIMEOUT_ENV = "REQUEST_TIMEOUT_MS"

export const RequestTimeoutConfig = Config.integer(REQUEST_TIMEOUT_ENV).pipe(
  Config.validate({ message: `${REQUEST_TIMEOUT_ENV} must be a positive integer`, validation: (ms) => ms > 0 }),
  Config.withDefault(5_000),
  Config.map(Duration.millis)
)

/** A route given longer than the default, by exact path or a pattern of paths. */
interface LongerDeadline {
  readonly path: string | RegExp
  readonly timeout: Duration.Duration
}

/** The deadline of a path: the first of `longer` that names it, else the default. */
export const deadlineTable = (defaultTimeout: Duration.Duration, longer: ReadonlyArray<LongerDeadline>) =>
(path: string): Duration.Duration =>
  longer.find((route) => (typeof route.path === "string" ? route.path === path : route.path.test(path)))?.timeout ??
    defaultTimeout

/** The answer past the deadline. */
export const tooSlowAnswer = (timeout: Duration.Duration): HttpServerResponse.HttpServerResponse =>
  errorResponse(503, {
    _tag: "ServiceUnavailable",
    code: "SERVICE_UNAVAILABLE",
    message: `The request took longer than ${Duration.format(timeout)}; retry shortly`
  })

/** One request being watched. */
export interface Watched {
  readonly deadline: number
  readonly expire: () => void
  readonly among: Set<Watched>
}

/**
 * How often the watch looks for requests past their deadline: a request
 * answers 503 up to this long after it.
 */
export const DEADLINE_TICK_MS = 50

/**
 * Every request answers within REQUEST_TIMEOUT_MS (default 5 s): past it,
 * 503 with the JSON error body. Without it a request whose query sits on a
 * black-holed connection waits for the query timeout (statement timeout +
 * 1 s, 16 s by default).
 *
 * One timer serves every request, ticking only while some request is
 * watched: a timer and a racing fiber per request cost a third of the CPU of
 * a request that needs no database. Requests with the same timeout expire in
 * the order they arrived, so each timeout's set (insertion-ordered) is
 * checked from its start only up to the first request still in time; a
 * request that finishes leaves its set at once.
 */
export const deadlineWatch = () => {
  const byTimeout = new Map<number, Set<Watched>>()
  let timer: NodeJS.Timeout | undefined

  const tick = () => {
    const now = performance.now()
    let watching = false
    for (const watched of byTimeout.values()) {
      for (const entry of watched) {
        if (entry.deadline > now) break
        watched.delete(entry)
        entry.expire()
      }
      if (watched.size > 0) watching = true
    }
    if (!watching && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }

  return {
    /** Calls `expire` once the timeout has passed, unless the request is released first. */
    watch: (timeout: Duration.Duration, expire: () => void): Watched => {
      const ms = Duration.toMillis(timeout)
      let watched = byTimeout.get(ms)
      if (watched === undefined) byTimeout.set(ms, watched = new Set())
      const entry: Watched = { deadline: performance.now() + ms, expire, among: watched }
      watched.add(entry)
      if (timer === undefined) {
        timer = setInterval(tick, DEADLINE_TICK_MS)
        // The process may exit with requests still watched (shutdown).
        timer.unref()
      }
      return entry
    },
    release: (entry: Watched): void => {
      entry.among.delete(entry)
    }
  }
}
