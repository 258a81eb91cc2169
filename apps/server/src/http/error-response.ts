import { HttpServerResponse } from "@effect/platform"

/**
 * The wire shape of every error the service sends:
 * `{"_tag", "code": "STABLE_CODE", "message": "human sentence", ...}`.
 * The edge modules answer with it directly; the endpoints get it from the
 * error schemas in @tks/domain/errors.
 */
interface ErrorBody {
  readonly _tag: string
  readonly code: string
  readonly message: string
  readonly [extra: string]: unknown
}

export const errorResponse = (
  status: number,
  body: ErrorBody,
  headers?: Record<string, string>
): HttpServerResponse.HttpServerResponse => HttpServerResponse.unsafeJson(body, { status, headers })

/** What to say for a status when nothing more specific is known (an error response that came without a body). */
export const genericErrorBody = (status: number): ErrorBody => {
  switch (status) {
    case 400:
      return { _tag: "BadRequest", code: "BAD_REQUEST", message: "The request is malformed" }
    case 401:
      return { _tag: "Unauthorized", code: "UNAUTHORIZED", message: "The bearer token is missing, invalid, expired or revoked" }
    case 403:
      return { _tag: "Forbidden", code: "FORBIDDEN", message: "The caller may not do this" }
    case 404:
      return { _tag: "NotFound", code: "NOT_FOUND", message: "Not found" }
    case 405:
      return { _tag: "MethodNotAllowed", code: "METHOD_NOT_ALLOWED", message: "This path does not accept that method" }
    case 408:
      return { _tag: "RequestTimeout", code: "REQUEST_TIMEOUT", message: "The request took too long to arrive" }
    case 413:
      return { _tag: "PayloadTooLarge", code: "PAYLOAD_TOO_LARGE", message: "The request body is too large" }
    case 431:
      return {
        _tag: "RequestHeaderFieldsTooLarge",
        code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
        message: "The request line or headers are too large"
      }
    case 503:
      return { _tag: "ServiceUnavailable", code: "SERVICE_UNAVAILABLE", message: "The service is unavailable; retry shortly" }
    default:
      return status >= 500
        ? { _tag: "InternalServerError", code: "INTERNAL_ERROR", message: "Something went wrong on our side" }
        : { _tag: "BadRequest", code: "BAD_REQUEST", message: "The request cannot be answered" }
  }
}

/** The `Retry-After` of a 503 that did not set its own: long enough for a pool to reconnect or a burst to pass. */
export const RETRY_AFTER_SECONDS = 5

