import { Effect } from "effect"
import type { DirectoryAuthRejected } from "@tks/core/directory/errors"
import type { ScimNotFound, ScimVersionMismatch } from "@tks/core/scim/errors"
import type { ScimInvalid } from "@tks/core/scim/user-resource"
import type { BadRequest, ServiceUnavailable } from "@tks/domain/errors"
import type { TooManyRequests } from "@tks/domain/rate-limit"
import { scimError } from "./answers.js"

/** Everything a SCIM request can fail with, once database failures are answers (withSqlErrorAnswers). */
export type ScimFailure =
  | DirectoryAuthRejected
  | ScimInvalid
  | ScimNotFound
  | ScimVersionMismatch
  | TooManyRequests
  | ServiceUnavailable
  | BadRequest

/**
 * The one place the SCIM transport turns failures into SCIM error bodies:
 * the token check's 401 or 403, a resource's 400 or 409 with its
 * `scimType`, 404, 412 for a stale If-Match, 429 over the connection's
 * rate limit (with Retry-After), and the database's 503 (with
 * Retry-After, added at the edge) or a value it refused (400).
 */
export const scimFailureAnswer = (failure: ScimFailure) => {
  switch (failure._tag) {
    case "DirectoryAuthRejected":
      return Effect.succeed(scimError(failure.status, failure.detail))
    case "ScimInvalid":
      return Effect.succeed(scimError(failure.status ?? 400, failure.detail, failure.scimType))
    case "ScimNotFound":
      return Effect.succeed(scimError(404, failure.detail))
    case "ScimVersionMismatch":
      return Effect.succeed(scimError(412, failure.detail))
    case "TooManyRequests":
      return Effect.succeed(scimError(429, failure.message, undefined, { "retry-after": String(failure.retryAfterSeconds) }))
    case "ServiceUnavailable":
      return Effect.succeed(scimError(503, failure.message))
    case "BadRequest":
      return Effect.succeed(scimError(400, failure.message, "invalidValue"))
  }
}
