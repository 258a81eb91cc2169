import { FileSystem, HttpIncomingMessage, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Cause, Config, Effect, Option, Predicate } from "effect"
import { errorResponse } from "./error-response.js"

/**
 * BODY_LIMIT_BYTES (default 4 MiB: a document's markdown may be 500,000
 * characters, up to 2 MB as UTF-8, plus the rest of the body). A larger
 * body is 413 PAYLOAD_TOO_LARGE with the JSON body: refused from its
 * Content-Length before a byte is read, and, for a body sent without one
 * (chunked), as soon as what has arrived passes the limit.
 */
export const BodyLimitConfig = Config.integer("BODY_LIMIT_BYTES").pipe(
  Config.validate({ message: "BODY_LIMIT_BYTES must be a positive integer (bytes)", validation: (n) => n > 0 }),
  Config.withDefault(4 * 1024 * 1024)
)

const tooLarge = (limit: number) =>
  errorResponse(
    413,
    { _tag: "PayloadTooLarge", code: "PAYLOAD_TOO_LARGE", message: `The request body is larger than ${limit} bytes` },
    // The rest of the body is not read: close rather than drain it.
    { connection: "close" }
  )

/**
 * When a streamed body passes MaxBodySize, @effect/platform-node stops
 * reading and destroys the request stream, and Node's IncomingMessage then
 * destroys the socket: the caller would get a reset instead of the 413.
 * For a body of unknown length this request's stream is made to close
 * without taking the socket along; the 413 then goes out with
 * `Connection: close`, and Node closes the socket after it. (A body with a
 * Content-Length within the limit can never pass it: Node frames it.)
 */
const keepSocketWhenStreamCloses = (request: HttpServerRequest.HttpServerRequest) => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  incoming._destroy = (error, callback) => callback(error)
}

// How @effect/platform-node fails a body read that passed MaxBodySize.
const isMaxBytesExceeded = (error: unknown): boolean =>
  Predicate.isTagged(error, "RequestError") && Predicate.hasProperty(error, "cause") &&
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

interface BodyLimit {
  /** 413 for a declared Content-Length over the limit; undefined otherwise. */
  readonly refuse: (request: HttpServerRequest.HttpServerRequest) => HttpServerResponse.HttpServerResponse | undefined
  /** The app, reading at most the limit of the request's body (untouched when there is no body). */
  readonly guard: <A, E, R>(request: HttpServerRequest.HttpServerRequest, app: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** 413 when the failure is a streamed body that passed the limit; undefined otherwise. */
  readonly answerFor: (cause: Cause.Cause<unknown>) => HttpServerResponse.HttpServerResponse | undefined
}

export const bodyLimit = (limit: number): BodyLimit => {
  const maxBodySize = Option.some(FileSystem.Size(limit))
  const refusal = tooLarge(limit)
  return {
    refuse: (request) => {
      const declared = request.headers["content-length"]
      return declared !== undefined && Number(declared) > limit ? refusal : undefined
    },
    guard: (request, app) => {
      const headers = request.headers
      const declared = headers["content-length"]
      const streamed = declared === undefined && headers["transfer-encoding"] !== undefined
      // No body: nothing to limit (most requests; this keeps them cheap).
      if (!streamed && (declared === undefined || declared === "0")) return app
      if (streamed) keepSocketWhenStreamCloses(request)
      return Effect.provideService(app, HttpIncomingMessage.MaxBodySize, maxBodySize)
    },
    answerFor: (cause) => isMaxBytesExceeded(Cause.squash(cause)) ? refusal : undefined
  }
}
