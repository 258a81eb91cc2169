import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Cause, Config, Context, Duration, Effect, FiberId, Option, Predicate, Runtime, type Scope } from "effect"
import { Idempotency } from "@tks/core/idempotency/service"
import { NarrationSettings } from "@tks/core/narration/settings"
import { RequestOrigin, type RequestOriginValue } from "@tks/domain/request-origin"
import { bodyLimit, BodyLimitConfig } from "./body-limit.js"
import { chooseEncoding, compress } from "./compression.js"
import { AllowedHostsConfig, PublicUrlConfig } from "../config.js"
import { CorsOriginsConfig, corsPolicy } from "./cors.js"
import { deadlineTable, deadlineWatch, RequestTimeoutConfig, tooSlowAnswer } from "./deadline.js"
import { requestDurations } from "../observability/metrics-http.js"
import { causeToResponse, finishErrorAnswer } from "./error-bodies.js"
import { hostOriginGuard } from "./host-origin.js"
import { keyedWrites } from "./idempotent-writes.js"
import { jsonBodyRefusal } from "./media-type.js"
import { allowedMethodsTable, type RouteSpec, wrongMethodAnswer } from "./method-not-allowed.js"
import { annotateRequest, REQUEST_ID_HEADER, requestIdFor, withRequestId } from "./request-id.js"
import { invalidTextAnswer } from "./request-text.js"
import { HttpsConfig, securityHeadersFor } from "./security-headers.js"

/**
 * The environment the edge reads: CORS_ORIGINS, ALLOWED_HOSTS, BODY_LIMIT_BYTES, PUBLIC_URL,
 * REQUEST_TIMEOUT_MS, NARRATION_SPEECH_TIMEOUT_MS.
 */
const EdgeConfig = Config.all({
  corsOrigins: CorsOriginsConfig,
  allowedHosts: AllowedHostsConfig,
  publicUrl: PublicUrlConfig,
  bodyLimit: BodyLimitConfig,
  https: HttpsConfig,
  requestTimeout: RequestTimeoutConfig,
  narration: NarrationSettings
})

/** Narration waits for speech up to NARRATION_SPEECH_TIMEOUT_MS, then answers its own 503: its deadline is later. */
const NARRATION_PATH = "/v1/narration/synthesize"

/**
 * Assigning a lesson to everyone writes enrollments, obligations, quizzes and
 * outbox rows for the whole organization in one transaction (3-5 s for
 * 20,000 people on a quiet machine, several times that under load, see
 * docs/benchmarks.md): its deadline is 30 s (or REQUEST_TIMEOUT_MS when that
 * is longer).
 */
const ASSIGNMENTS_PATH = /^\/v1\/lessons\/[^/]+\/assignments$/
const ASSIGNMENTS_DEADLINE = Duration.seconds(30)

interface EdgeOptions {
  /** Every route the router has, for 405 `Allow` and CORS preflight. */
  readonly routes: ReadonlyArray<RouteSpec>
  /** The paths of the HTML docs page (its own Content-Security-Policy). */
  readonly docsPaths: ReadonlyArray<string>
  /** The routes whose body is JSON (from the contract): any other media type is 415. */
  readonly jsonBodyRoutes?: ReadonlyArray<RouteSpec>
  /** Paths (and everything under them) that answer only their own hosts and origins (DNS-rebinding protection). */
  readonly hostCheckedPaths?: ReadonlyArray<string>
  /** The writes that take an Idempotency-Key (from the contract); they need core's Idempotency. */
  readonly keyedWriteRoutes?: ReadonlyArray<RouteSpec>
}

// Who interrupts a request abandoned at its deadline (the logs' "interrupted by").
const DEADLINE_FIBER = FiberId.make(-1, 0)

type Response = HttpServerResponse.HttpServerResponse
type Request = HttpServerRequest.HttpServerRequest

/**
 * What every HTTP request passes through, in one pass (one fiber, no timer
 * of its own), so the order is explicit. Before routing, the first of these
 * that applies answers:
 *
 * 1. a request to /mcp or /rpc from a host or origin they do not answer
 *    (403, http/host-origin.ts);
 * 2. a CORS preflight from an allowed origin for a known path (204);
 * 3. path and query text that is not sound (400);
 * 4. a declared body over the size limit (413);
 * 5. a JSON route's body of another media type (415);
 * 6. a write's Idempotency-Key that is not a key (400).
 *
 * Otherwise the router runs, reading at most the body limit (413 past it),
 * under the request deadline (503; narration's is its speech timeout plus
 * 5 s, assigning a lesson's 30 s); a wrong method on a known path is 405
 * with Allow, any other failure its JSON error answer. A write with an
 * Idempotency-Key runs it all in one database transaction that keeps its
 * answer (idempotent-writes.ts), or answers the one kept. Then every answer,
 * early ones included, gets: the JSON error body made whole (error bodies),
 * the CORS headers, the security headers, the request id (header, error
 * body, log annotations) and, last, compression of the final body. With
 * metrics on, all of it is timed (observability/metrics-http.ts).
 */
export const EdgeLive = (options: EdgeOptions) =>
  HttpLayerRouter.middleware(
    Effect.gen(function*() {
      const config = yield* EdgeConfig
      // The deadline's warning is logged from the watch's timer, outside any request fiber.
      const runtime = yield* Effect.runtime<never>()
      const allowedMethods = allowedMethodsTable(options.routes)
      const cors = corsPolicy({ origins: config.corsOrigins, allowedMethods })
      const refuseHostOrOrigin = hostOriginGuard({
        paths: options.hostCheckedPaths ?? [],
        allowedHosts: config.allowedHosts,
        corsOrigins: config.corsOrigins,
        publicUrl: config.publicUrl
      })
      const securityHeaders = securityHeadersFor({ https: config.https, docsPaths: options.docsPaths })
      const limit = bodyLimit(config.bodyLimit)
      const refuseMediaType = jsonBodyRefusal(options.jsonBodyRoutes ?? [])
      const wrongMethod = wrongMethodAnswer(allowedMethods)
      const idempotency = yield* Effect.serviceOption(Idempotency)
      if (options.keyedWriteRoutes !== undefined && Option.isNone(idempotency)) {
        return yield* Effect.dieMessage("Writes that take an Idempotency-Key need core's Idempotency service")
      }
      const keyed = options.keyedWriteRoutes === undefined || Option.isNone(idempotency)
        ? undefined
        : keyedWrites(options.keyedWriteRoutes, idempotency.value)
      const timeoutOf = deadlineTable(config.requestTimeout, [
        { path: NARRATION_PATH, timeout: Duration.max(config.requestTimeout, Duration.sum(config.narration.speechTimeout, Duration.seconds(5))) },
        { path: ASSIGNMENTS_PATH, timeout: Duration.max(config.requestTimeout, ASSIGNMENTS_DEADLINE) }
      ])
      const deadlines = deadlineWatch()
      const measure = yield* requestDurations(options.routes)

      // Security headers and the request id: every answer, the CORS preflight's too.
      const stamp = (path: string, requestId: string, response: Response) =>
        withRequestId(HttpServerResponse.setHeaders(response, securityHeaders(path)), requestId)
      // Everything but compression, synchronous, so the deadline's answer can be made outside the fiber.
      const finish = (request: Request, path: string, requestId: string, response: Response) => {
        const whole = finishErrorAnswer(request, response)
        return stamp(path, requestId, cors === undefined ? whole : cors.apply(request, whole))
      }

      const answerLate = (request: Request, path: string, requestId: string, timeout: Duration.Duration) => {
        const nodeResponse = NodeHttpServerRequest.toServerResponse(request)
        if (!nodeResponse.headersSent && !nodeResponse.writableEnded) {
          writeNow(nodeResponse, request.method, finish(request, path, requestId, tooSlowAnswer(timeout)))
        }
        Runtime.runFork(runtime)(
          Effect.logWarning("request deadline passed").pipe(
            Effect.annotateLogs({ method: request.method, path, deadline: Duration.format(timeout), requestId })
          )
        )
      }

      return (
        app: Effect.Effect<Response, HttpLayerRouter.unhandled>
      ): Effect.Effect<Response, HttpLayerRouter.unhandled, Request | Scope.Scope> =>
        measure(Effect.withFiberRuntime((fiber) => {
          const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
          const url = request.url
          const mark = url.indexOf("?")
          const path = mark === -1 ? url : url.slice(0, mark)
          const requestId = requestIdFor(request.headers[REQUEST_ID_HEADER])
          const encoding = request.method === "HEAD" ? undefined : chooseEncoding(request.headers["accept-encoding"])
          const annotate = annotateRequest(fiber, requestId)

          const refused = refuseHostOrOrigin?.(request, path)
          if (refused !== undefined) {
            return Effect.zipRight(annotate, compress(finish(request, path, requestId, refused), encoding))
          }
          const preflight = cors?.preflight(request, path)
          if (preflight !== undefined) return Effect.zipRight(annotate, compress(stamp(path, requestId, preflight), encoding))
          const early = invalidTextAnswer(url) ?? limit.refuse(request) ?? refuseMediaType(request, path) ?? keyed?.refuse(request, path)
          if (early !== undefined) {
            return Effect.zipRight(annotate, compress(finish(request, path, requestId, early), encoding))
          }

          const timeout = timeoutOf(path)
          let late = false
          const watched = deadlines.watch(timeout, () => {
            late = true
            answerLate(request, path, requestId, timeout)
            // In the background: a transaction under the handler rolls back,
            // while the answer did not wait for it (its query may sit on a
            // dead connection). A write whose COMMIT was already on the way
            // may still have happened, as with any timeout.
            fiber.unsafeInterruptAsFork(DEADLINE_FIBER)
          })
          const answerFailure = (cause: Cause.Cause<unknown>): Effect.Effect<Response> => {
            // Already answered; this is what the access log records.
            if (late) return Effect.succeed(tooSlowAnswer(timeout))
            const tooLarge = limit.answerFor(cause)
            if (tooLarge !== undefined) return Effect.succeed(tooLarge)
            const failure = Cause.failureOption(cause)
            if (failure._tag === "Some" && Predicate.isTagged(failure.value, "RouteNotFound")) {
              const answer = wrongMethod(request, path)
              if (answer !== undefined) return Effect.succeed(answer)
            }
            return causeToResponse(request, cause)
          }
          const routed = limit.guard(request, app).pipe(Effect.catchAllCause(answerFailure))
          // The whole answer, error bodies included, is what a keyed write keeps.
          const once = keyed?.once(request, path, routed)
          const answered = once === undefined ? routed : limit.guard(request, once).pipe(Effect.catchAllCause(answerFailure))
          const handled = answered.pipe(
            Effect.provideService(RequestOrigin, originOf(request, requestId)),
            // Compression is not the route's time: the docs page's first
            // brotli takes seconds, once.
            Effect.ensuring(Effect.sync(() => deadlines.release(watched))),
            // An answer that came after the deadline's is not the one the caller got.
            Effect.flatMap((response) =>
              compress(finish(request, path, requestId, late ? tooSlowAnswer(timeout) : response), encoding)
            )
          )
          return Effect.zipRight(annotate, handled)
        }))
    }),
    { global: true }
  )

/** Where a request came from, for the audit rows of the acts it does. */
const originOf = (request: Request, requestId: string): RequestOriginValue => ({
  transport: "http",
  requestId,
  clientIp: request.remoteAddress._tag === "Some" ? request.remoteAddress.value : null,
  userAgent: request.headers["user-agent"] ?? null
})

/** Writes an answer straight to Node, as the platform would (no cookies, no streams: an error answer). */
const writeNow = (nodeResponse: ReturnType<typeof NodeHttpServerRequest.toServerResponse>, method: string, response: Response) => {
  const body = response.body
  const headers: Record<string, string> = { ...response.headers }
  if (body._tag === "Uint8Array") {
    headers["content-type"] ??= body.contentType
    headers["content-length"] = String(body.body.length)
  }
  nodeResponse.writeHead(response.status, headers)
  if (method === "HEAD" || body._tag !== "Uint8Array") nodeResponse.end()
  else nodeResponse.end(body.body)
}
