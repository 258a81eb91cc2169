import { HttpLayerRouter, type HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Config, Duration, Effect, type Scope } from "effect"
import { NarrationSettings } from "@tks/core/narration/settings"
import { BodyLimitConfig, limitBody } from "./body-limit.js"
import { withCompression } from "./compression.js"
import { RequestTimeoutConfig, withDeadline } from "./deadline.js"
import { CorsOriginsConfig, withCors } from "./cors.js"
import { withErrorBodies } from "./error-bodies.js"
import { requireJsonBodies } from "./media-type.js"
import { allowedMethodsTable, answerWrongMethod, type RouteSpec } from "./method-not-allowed.js"
import { withRequestId } from "./request-id.js"
import { refuseInvalidText } from "./request-text.js"
import { HttpsConfig, withSecurityHeaders } from "./security-headers.js"

/** The environment the edge reads: CORS_ORIGINS, BODY_LIMIT_BYTES, PUBLIC_URL, REQUEST_TIMEOUT_MS, NARRATION_SPEECH_TIMEOUT_MS. */
export const EdgeConfig = Config.all({
  corsOrigins: CorsOriginsConfig,
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

export interface EdgeOptions {
  /** Every route the router has, for 405 `Allow` and CORS preflight. */
  readonly routes: ReadonlyArray<RouteSpec>
  /** The paths of the HTML docs page (its own Content-Security-Policy). */
  readonly docsPaths: ReadonlyArray<string>
  /** The routes whose body is JSON (from the contract): any other media type is 415. */
  readonly jsonBodyRoutes?: ReadonlyArray<RouteSpec>
}

/**
 * What every HTTP request passes through, as one global middleware so the
 * order is explicit (outermost first):
 *
 * 1. compression: of the final body, error bodies included;
 * 2. request id: header, log annotations, `requestId` in error bodies;
 * 3. security headers, on every answer;
 * 4. CORS: preflight answered here; headers on every answer, errors included;
 * 5. error bodies: every failure and every bodiless error becomes JSON;
 * 6. path and query text check (400), 7. body size limit (413), 8. a JSON
 *    route's body of another media type (415), 9. wrong method on a known
 *    path (405), 10. the request deadline (503; narration's is
 *    its speech timeout plus 5 s, assigning a lesson's 30 s) -- then the router.
 */
export const EdgeLive = (options: EdgeOptions) =>
  HttpLayerRouter.middleware(
    Effect.map(EdgeConfig, (config) => {
      const allowedMethods = allowedMethodsTable(options.routes)
      const cors = withCors({ origins: config.corsOrigins, allowedMethods })
      const securityHeaders = withSecurityHeaders({ https: config.https, docsPaths: options.docsPaths })
      const bodyLimit = limitBody(config.bodyLimit)
      const wrongMethod = answerWrongMethod(allowedMethods)
      const jsonOnly = requireJsonBodies(options.jsonBodyRoutes ?? [])
      const deadline = withDeadline(config.requestTimeout, [
        { path: NARRATION_PATH, timeout: Duration.max(config.requestTimeout, Duration.sum(config.narration.speechTimeout, Duration.seconds(5))) },
        { path: ASSIGNMENTS_PATH, timeout: Duration.max(config.requestTimeout, ASSIGNMENTS_DEADLINE) }
      ])
      return (
        app: Effect.Effect<HttpServerResponse.HttpServerResponse, HttpLayerRouter.unhandled>
      ): Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        HttpLayerRouter.unhandled,
        HttpServerRequest.HttpServerRequest | Scope.Scope
      > =>
        withCompression(
          withRequestId(securityHeaders(cors(withErrorBodies(refuseInvalidText(bodyLimit(jsonOnly(wrongMethod(deadline(app)))))))))
        )
    }),
    { global: true }
  )
