import { HttpApiSchema, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { type ActAnswer, Idempotency, type KeptAnswer } from "@tks/core/idempotency/service"
import { withDatabaseAvailability } from "./infrastructure-errors.js"
import { parseBearer } from "@tks/domain/bearer"
import { ServiceUnavailable, Unauthorized } from "@tks/domain/errors"
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyProblem,
  IdempotencyKeyInUse,
  IdempotencyKeyReused
} from "@tks/domain/idempotency"
import { type RateLimitDecision, TooManyRequests } from "@tks/domain/rate-limit"
import { finishErrorAnswer } from "./error-bodies.js"
import { errorResponse } from "./error-response.js"
import { allowedMethodsTable, type RouteSpec } from "./method-not-allowed.js"
import { decisionHeaders, refusalHeaders } from "./rate-limit.js"
import { requestFingerprint } from "./request-fingerprint.js"

type Response = HttpServerResponse.HttpServerResponse
type Request = HttpServerRequest.HttpServerRequest

/** What a keyed write can be refused with besides its own answers. */
const KeyedRefusal = Schema.Union(IdempotencyKeyInUse, IdempotencyKeyReused, Unauthorized, TooManyRequests, ServiceUnavailable)
const statusOf = new Map<string, number>(KeyedRefusal.members.map((member) => [member._tag, HttpApiSchema.getStatusError(member)]))

const refusalAnswer = (error: typeof KeyedRefusal.Type) =>
  Schema.encode(KeyedRefusal)(error).pipe(
    Effect.orDie,
    Effect.map((body) =>
      errorResponse(statusOf.get(error._tag) ?? 500, body, error._tag === "TooManyRequests" ? refusalHeaders(error) : undefined)
    )
  )

/** The answer as kept: the bytes the caller got (its error body made whole), or undefined when it is not bytes. */
const actAnswer = (request: Request, response: Response): ActAnswer => {
  const whole = finishErrorAnswer(request, response)
  const body = whole.body
  const location = whole.headers.location ?? null
  switch (body._tag) {
    case "Uint8Array":
      return {
        status: whole.status,
        answer: { status: whole.status, contentType: whole.headers["content-type"] ?? body.contentType, location, body: body.body }
      }
    case "Empty":
      return { status: whole.status, answer: { status: whole.status, contentType: null, location, body: new Uint8Array(0) } }
    default:
      // A stream (no write answers with one today): sent, never kept.
      return { status: whole.status, answer: undefined }
  }
}

const replayed = (answer: KeptAnswer, rateLimit: RateLimitDecision): Response => {
  const headers: Record<string, string> = { [IDEMPOTENT_REPLAYED_HEADER]: "true", ...decisionHeaders(rateLimit) }
  if (answer.location !== null) headers.location = answer.location
  return answer.contentType === null
    ? HttpServerResponse.empty({ status: answer.status, headers })
    : HttpServerResponse.uint8Array(answer.body, { status: answer.status, headers, contentType: answer.contentType })
}

/**
 * Idempotency-Key at the edge, for the writes the contract says take one
 * (`keyedWriteRoutes` of @tks/api/idempotent-writes). The rules are in
 * docs/domain.md (Idempotent writes); core's Idempotency keeps them in one
 * transaction around the whole routed request.
 */
export const keyedWrites = (routes: ReadonlyArray<RouteSpec>, idempotency: Idempotency) => {
  const methodsOf = allowedMethodsTable(routes)
  // The table also answers OPTIONS (and HEAD with GET) for every path it knows: only the routes' own methods are keyed.
  const keyedMethods = new Set(routes.map((route) => route.method))
  const keyedRoute = (request: Request, path: string) =>
    keyedMethods.has(request.method) && (methodsOf(path)?.includes(request.method) ?? false)

  return {
    /** 400 VALIDATION_ERROR for a keyed write's Idempotency-Key that is not a key; undefined otherwise. */
    refuse: (request: Request, path: string): Response | undefined => {
      const key = request.headers[IDEMPOTENCY_KEY_HEADER]
      if (key === undefined || !keyedRoute(request, path)) return undefined
      const problem = idempotencyKeyProblem(key)
      if (problem === undefined) return undefined
      return errorResponse(400, {
        _tag: "BadRequest",
        code: "VALIDATION_ERROR",
        message: problem,
        issues: [{ path: "Idempotency-Key", message: problem }]
      })
    },

    /**
     * `routed` (the request's answer) run once for its key, or undefined
     * when this is not a keyed write: no key, a route that takes none, or
     * no bearer token (a 401, which is never kept). Reads the body (at most
     * the limit the caller provides) to tell one request from another.
     */
    once: (request: Request, path: string, routed: Effect.Effect<Response>) => {
      const key = request.headers[IDEMPOTENCY_KEY_HEADER]
      if (key === undefined || !keyedRoute(request, path)) return undefined
      const token = parseBearer(request.headers.authorization)
      if (token === undefined) return undefined
      return request.text.pipe(
        Effect.flatMap((body) =>
          idempotency.once(
            { token, key, requestHash: requestFingerprint(request.method, request.url, body) },
            routed,
            (response) => actAnswer(request, response)
          )
        ),
        Effect.map((outcome) => (outcome._tag === "Replayed" ? replayed(outcome.answer, outcome.rateLimit) : outcome.value)),
        withDatabaseAvailability,
        Effect.catchIf(Schema.is(KeyedRefusal), refusalAnswer)
      )
    }
  }
}
