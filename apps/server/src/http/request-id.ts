import { randomUUID } from "node:crypto"
import { HttpBody, HttpServerResponse } from "@effect/platform"
import { Context, type Effect, type Fiber, FiberRef, HashMap, Option, Tracer } from "effect"

/**
 * X-Request-Id: the caller's, when it is a sane value (1 to 200 visible
 * ASCII characters), else a fresh UUID. It is returned on every response,
 * put on every log line of the request (with the trace and span ids when
 * tracing is on), and added to every JSON error body as `requestId`, so a
 * caller's report can be matched to the logs.
 */
export const REQUEST_ID_HEADER = "x-request-id"

const SANE = /^[\x21-\x7e]{1,200}$/

/** The caller's id when it is sane, else a new one. */
export const requestIdFor = (incoming: string | undefined): string =>
  incoming !== undefined && SANE.test(incoming) ? incoming : randomUUID()

const OPEN_BRACE = 0x7b
const encoder = new TextEncoder()

/**
 * `{"requestId":"…",` spliced in front of a JSON object body: no parse, no
 * re-encode. The id is JSON-escaped (it is visible ASCII, but may hold `"`).
 */
const withRequestIdInBody = (
  response: HttpServerResponse.HttpServerResponse,
  requestId: string
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (response.status < 400 || body._tag !== "Uint8Array" || body.body[0] !== OPEN_BRACE) return response
  if (!body.contentType.includes("json")) return response
  const prefix = encoder.encode(`{"requestId":${JSON.stringify(requestId)}${body.body.length > 2 ? "," : ""}`)
  const spliced = new Uint8Array(prefix.length + body.body.length - 1)
  spliced.set(prefix, 0)
  spliced.set(body.body.subarray(1), prefix.length)
  return HttpServerResponse.setBody(response, HttpBody.uint8Array(spliced, body.contentType))
}

/**
 * The request's log annotations: its id (and the trace and span ids when
 * tracing is on). They are set on the request's fiber itself rather than
 * around the edge: the server runs each request in a fiber of its own, and
 * its "Sent HTTP response" line, written after the edge returns, must carry
 * them too. (Scoped annotations would do the same at three times the cost.)
 */
export const annotateRequest = (fiber: Fiber.RuntimeFiber<unknown, unknown>, requestId: string): Effect.Effect<void> => {
  let annotations = HashMap.set(fiber.getFiberRef(FiberRef.currentLogAnnotations), "requestId", requestId)
  const span = fiber.getFiberRef(FiberRef.currentTracerEnabled)
    ? Option.getOrUndefined(Context.getOption(fiber.currentContext, Tracer.ParentSpan))
    : undefined
  if (span !== undefined) {
    annotations = HashMap.set(HashMap.set(annotations, "traceId", span.traceId), "spanId", span.spanId)
  }
  return FiberRef.set(FiberRef.currentLogAnnotations, annotations)
}

/** The final touch of every answer: the id as a header, and in a JSON error body. */
export const withRequestId = (
  response: HttpServerResponse.HttpServerResponse,
  requestId: string
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setHeader(withRequestIdInBody(response, requestId), REQUEST_ID_HEADER, requestId)
