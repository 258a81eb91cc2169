import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Config, Duration, Effect } from "effect"
import { errorResponse } from "./error-response.js"

export const REQUEST_TIMEOUT_ENV = "REQUEST_TIMEOUT_MS"

export const RequestTimeoutConfig = Config.integer(REQUEST_TIMEOUT_ENV).pipe(
  Config.validate({ message: `${REQUEST_TIMEOUT_ENV} must be a positive integer`, validation: (ms) => ms > 0 }),
  Config.withDefault(5_000),
  Config.map(Duration.millis)
)

/**
 * Every request answers within REQUEST_TIMEOUT_MS (default 5 s): past it,
 * 503 with the JSON error body. Without it a request whose query sits on a
 * black-holed connection waits for the query timeout (statement timeout +
 * 1 s, 16 s by default). The handler is disconnected before the timeout
 * because interrupting it waits for its query's cancellation, which itself
 * waits on the dead network (as DatabaseHealth.ping does); it is still
 * interrupted, in the background, so a transaction under it rolls back
 * (unless its COMMIT was already on the way: a write that answered 503 may
 * still have happened, as with any timeout).
 */
export const withDeadline = (
  defaultTimeout: Duration.Duration,
  /**
   * Routes given longer, by exact path or a pattern of paths (narration waits
   * on a speech provider for tens of seconds; assigning a lesson writes for a
   * whole organization at once).
   */
  longer: ReadonlyArray<{ readonly path: string | RegExp; readonly timeout: Duration.Duration }> = []
) => {
  const timeoutOf = (path: string) =>
    longer.find((route) => (typeof route.path === "string" ? route.path === path : route.path.test(path)))?.timeout ?? defaultTimeout
  const tooSlow = (timeout: Duration.Duration) => Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    yield* Effect.logWarning("request deadline passed").pipe(
      Effect.annotateLogs({ method: request.method, path: request.url.split("?")[0], deadline: Duration.format(timeout) })
    )
    return errorResponse(503, {
      _tag: "ServiceUnavailable",
      code: "SERVICE_UNAVAILABLE",
      message: `The request took longer than ${Duration.format(timeout)}; retry shortly`
    })
  })
  return <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const timeout = timeoutOf(request.url.split("?")[0]!)
      return app.pipe(
        Effect.disconnect,
        Effect.timeoutTo({ duration: timeout, onSuccess: Effect.succeed, onTimeout: () => tooSlow(timeout) }),
        Effect.flatten
      )
    }).pipe(
      // Global middleware runs where the server made the request
      // uninterruptible (only the route itself is interruptible): without
      // this, the timeout would wait for the handler it abandons.
      Effect.interruptible
    )
}
