import { type HttpServerRequest, HttpServerRespondable, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Predicate } from "effect"
import { bearerChallenge } from "@tks/domain/bearer"
import { abbreviate, decodeErrorMessage, type DecodeIssue, summarizeDecodeIssues } from "@tks/domain/decode-issues"
import { errorResponse, genericErrorBody, RETRY_AFTER_SECONDS } from "./error-response.js"

/**
 * Every non-2xx answer has the JSON body `{code, message, ...}`.
 * The HttpApi framework answers some requests itself, outside our error
 * schemas: a request that fails schema decoding (its own
 * 400 body), malformed JSON (a RequestError), an unknown route, or a defect.
 * This middleware gives those the same shape, fills any error answer that
 * came without a body, challenges a 401 with `WWW-Authenticate: Bearer` (unless
 * it carries a challenge of its own) and
 * gives every 503 a `Retry-After`.
 */
const reshapeDecodeError = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.body._tag !== "Uint8Array") return response
  let parsed: { _tag?: unknown; issues?: ReadonlyArray<DecodeIssue> }
  try {
    parsed = JSON.parse(new TextDecoder().decode(response.body.body))
  } catch {
    return response
  }
  if (parsed._tag !== "HttpApiDecodeError") return response
  const issues = summarizeDecodeIssues(parsed.issues ?? [])
  return errorResponse(400, { _tag: "BadRequest", code: "VALIDATION_ERROR", message: decodeErrorMessage(issues), issues })
}

const isEmpty = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Empty" || (response.body._tag === "Uint8Array" && response.body.body.length === 0)

/** An error answer made whole: a JSON body, `Retry-After` on a 503, a Bearer challenge on a 401. */
export const finishErrorAnswer = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400) return response
  let answer = response.status === 400 ? reshapeDecodeError(response) : response
  // 499: the caller is gone; nobody reads a body.
  if (isEmpty(answer) && answer.status !== 499) {
    answer = HttpServerResponse.setBody(
      answer,
      HttpServerResponse.unsafeJson(genericErrorBody(answer.status)).body
    )
  }
  // A 503 is always worth retrying (the database away or slow, a deadline
  // passed): say when, unless the answer already did.
  if (answer.status === 503 && answer.headers["retry-after"] === undefined) {
    answer = HttpServerResponse.setHeader(answer, "retry-after", String(RETRY_AFTER_SECONDS))
  }
  // A 401 that named its own challenge (an organization's MCP resource: its metadata and scopes) keeps it.
  if (answer.status === 401 && answer.headers["www-authenticate"] === undefined) {
    answer = HttpServerResponse.setHeader(answer, "www-authenticate", bearerChallenge(request.headers.authorization))
  }
  return answer
}

/** The answer to a failure or a defect of the routed app. */
export const causeToResponse = (
  request: HttpServerRequest.HttpServerRequest,
  cause: Cause.Cause<unknown>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.gen(function*() {
    if (Cause.isInterruptedOnly(cause)) return HttpServerResponse.empty({ status: 499 })
    // A body that does not parse reaches us as a defect, not a failure: look at both.
    const error = Cause.squash(cause)
    if (Predicate.isTagged(error, "RouteNotFound")) {
      const path = abbreviate(request.url.split("?")[0]!)
      return errorResponse(404, { _tag: "NotFound", code: "NOT_FOUND", message: `No route for ${request.method} ${path}` })
    }
    if (Predicate.isTagged(error, "RequestError") && Predicate.hasProperty(error, "reason") && error.reason === "Decode") {
      return errorResponse(400, { _tag: "BadRequest", code: "MALFORMED_JSON", message: "The request body is not valid JSON" })
    }
    // Errors that know their answer (e.g. DatabaseConflict, a 409).
    if (HttpServerRespondable.isRespondable(error)) return yield* HttpServerRespondable.toResponse(error)
    yield* Effect.logError("unhandled failure", cause)
    return errorResponse(500, genericErrorBody(500))
  })
