import { HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Predicate } from "effect"

/**
 * Every non-2xx answer has the JSON body `{code, message, ...}` (DESIGN 4).
 * The HttpApi framework answers some requests itself, outside our error
 * schemas (DESIGN pitfall 2): a request that fails schema decoding (its own
 * 400 body), malformed JSON (a RequestError), an unknown route, or a defect.
 * This global middleware gives those the same shape.
 */
const json = (status: number, tag: string, code: string, message: string, extra: object = {}) =>
  HttpServerResponse.unsafeJson({ _tag: tag, code, message, ...extra }, { status })

interface DecodeIssue {
  readonly path?: ReadonlyArray<unknown>
  readonly message?: string
}

const reshapeDecodeError = (response: HttpServerResponse.HttpServerResponse) => {
  if (response.status !== 400 || response.body._tag !== "Uint8Array") return response
  let parsed: { _tag?: unknown; issues?: ReadonlyArray<DecodeIssue>; message?: unknown }
  try {
    parsed = JSON.parse(new TextDecoder().decode(response.body.body))
  } catch {
    return response
  }
  if (parsed._tag !== "HttpApiDecodeError") return response
  // A parameter that fails an optional schema yields a second, unhelpful
  // issue ("Expected undefined"); one issue per parameter is enough.
  const byPath = new Map<string, string>()
  for (const issue of parsed.issues ?? []) {
    const path = (issue.path ?? []).map(String).join(".")
    if (!byPath.has(path)) byPath.set(path, issue.message ?? "is invalid")
  }
  const issues = [...byPath].map(([path, message]) => ({ path, message }))
  const first = issues[0]
  const message = first === undefined
    ? "The request is invalid"
    : first.path === "" ? first.message : `${first.path}: ${first.message}`
  return json(400, "BadRequest", "VALIDATION_ERROR", message, { issues })
}

const causeToResponse = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (Cause.isInterruptedOnly(cause)) return HttpServerResponse.empty({ status: 499 })
    // A body that does not parse reaches us as a defect, not a failure: look at both.
    const error = Cause.squash(cause)
    if (Predicate.isTagged(error, "RouteNotFound")) {
      return json(404, "NotFound", "NOT_FOUND", `No route for ${request.method} ${request.url.split("?")[0]}`)
    }
    if (Predicate.isTagged(error, "RequestError") && Predicate.hasProperty(error, "reason") && error.reason === "Decode") {
      return json(400, "BadRequest", "MALFORMED_JSON", "The request body is not valid JSON")
    }
    yield* Effect.logError("unhandled failure", cause)
    return json(500, "InternalServerError", "INTERNAL_ERROR", "Something went wrong on our side")
  })

export const ErrorBodiesLive = HttpLayerRouter.middleware(
  // Handles every failure; the declared `unhandled` only satisfies the router's typing.
  (httpEffect): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    HttpLayerRouter.unhandled,
    HttpServerRequest.HttpServerRequest
  > => httpEffect.pipe(Effect.map(reshapeDecodeError), Effect.catchAllCause(causeToResponse)),
  { global: true }
)
