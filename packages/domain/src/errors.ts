import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The errors every endpoint can answer with. Each encodes to the wire body
 * `{"code": "STABLE_CODE", "message": "human sentence", ...details}` (plus the
 * `_tag` the typed client discriminates on) with its HTTP status.
 *
 * `code` and `message` are declared schema fields, so they are own
 * enumerable properties and always reach the encoder (a tagged error's own `message` is not an
 * own enumerable property, and an encoder that misses it falls back to an
 * empty 500).
 */
export const code = <const C extends string>(value: C) =>
  Schema.Literal(value).pipe(Schema.propertySignature, Schema.withConstructorDefault(() => value))

/**
 * A `code` that is one of a closed list, the first being what a constructor
 * without one gets: the contract publishes each error's codes as an enum, so
 * a client can switch over them, and the compiler refuses a code not listed.
 */
const codes = <const C extends readonly [string, ...Array<string>]>(...values: C) =>
  Schema.Literal(...values).pipe(Schema.propertySignature, Schema.withConstructorDefault((): C[number] => values[0]))

/**
 * Every code a 400 answer carries: the general ones, then each act's own
 * refusals (the named tables beside those acts: BadRequestCode below,
 * AssigningCode, LearningCode, PopQuizLearnerCode, PopQuizSendCode,
 * intakeErrorCodes, WebhookCode).
 */
const badRequestCodes = codes(
  "BAD_REQUEST",
  "VALIDATION_ERROR",
  "MALFORMED_JSON",
  "INVALID_CURSOR",
  "UNKNOWN_TEAM",
  "UNKNOWN_TOOL",
  "SCOPE_NOT_GRANTABLE",
  "REVIEW_NOT_DECIDABLE",
  "UNKNOWN_USER",
  "CANNOT_TAKE_LESSON",
  "LESSON_NOT_ASSIGNABLE",
  "NOBODY_REACHED",
  "LESSON_NOT_IN_PROGRESS",
  "UNKNOWN_ITEM",
  "NO_DUTY",
  "PERSON_DEACTIVATED",
  "OBLIGATION_STATE",
  "LESSON_CLOSED",
  "QUIZ_NOT_READY",
  "ENROLLMENT_COMPLETED",
  "INVALID_ANSWERS",
  "POP_QUIZ_NOT_READY",
  "POP_QUIZ_NOT_STARTED",
  "POP_QUIZ_COMPLETED",
  "UNKNOWN_CONTENT",
  "DUE_DATE_NOT_IN_FUTURE",
  "DIFFICULTY_NOT_IN_PLAN",
  "RECIPIENT_CANNOT_SEE_CONTENT",
  "UNFETCHABLE_ADDRESS",
  "VIDEO_UNAVAILABLE",
  "TEAM_REQUIRED",
  "WEBHOOK_ENDPOINT_DISABLED",
  "DIRECTORY_CONNECTION_DISCONNECTED"
)

/** One problem found in the caller's input. */
export class InputIssue extends Schema.Class<InputIssue>("InputIssue")({
  path: Schema.String,
  message: Schema.String
}) {}

export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  {
    code: badRequestCodes,
    message: Schema.String,
    issues: Schema.optional(Schema.Array(InputIssue))
  },
  HttpApiSchema.annotations({ status: 400, description: "The request is malformed or breaks a rule of the endpoint." })
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { code: code("UNAUTHORIZED"), message: Schema.String },
  HttpApiSchema.annotations({ status: 401, description: "The bearer token is missing, invalid, expired or revoked." })
) {}

/**
 * Every code a 403 answer carries: FORBIDDEN, or INSUFFICIENT_SCOPE when an
 * organization's MCP resource refuses a tool call because the token lacks
 * the tool's scope (with `WWW-Authenticate: Bearer error="insufficient_scope"`).
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { code: codes("FORBIDDEN", "INSUFFICIENT_SCOPE"), message: Schema.String },
  HttpApiSchema.annotations({ status: 403, description: "The caller may not do this." })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { code: code("NOT_FOUND"), message: Schema.String },
  HttpApiSchema.annotations({
    status: 404,
    description: "Absent, in another organization, or out of the caller's reach."
  })
) {}

export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()(
  "ServiceUnavailable",
  {
    code: codes("SERVICE_UNAVAILABLE", "DATABASE_TIMEOUT", "POP_QUIZ_GENERATION_FAILED"),
    message: Schema.String
  },
  HttpApiSchema.annotations({
    status: 503,
    description:
      "A dependency is unavailable (SERVICE_UNAVAILABLE) or the database took too long (DATABASE_TIMEOUT); safe to retry after Retry-After."
  })
) {}

/** Stable codes of 503 answers: the database away, or too busy to answer in time (both carry Retry-After). */
export const ServiceUnavailableCode = {
  unavailable: "SERVICE_UNAVAILABLE",
  databaseTimeout: "DATABASE_TIMEOUT"
} as const

export const databaseUnavailable = () =>
  new ServiceUnavailable({ code: ServiceUnavailableCode.unavailable, message: "The database is unavailable; retry shortly" })

export const databaseTimeout = () =>
  new ServiceUnavailable({
    code: ServiceUnavailableCode.databaseTimeout,
    message: "The database took too long to answer; retry shortly"
  })

/**
 * Errors the HTTP edge answers before a request reaches its endpoint
 * (apps/server/src/http). No handler fails with them; they are declared so
 * the OpenAPI document describes every `_tag` a caller can receive.
 */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "MethodNotAllowed",
  { code: code("METHOD_NOT_ALLOWED"), message: Schema.String },
  HttpApiSchema.annotations({ status: 405, description: "The path exists but not with this method; `Allow` lists its methods." })
) {}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { code: code("UNSUPPORTED_MEDIA_TYPE"), message: Schema.String },
  HttpApiSchema.annotations({
    status: 415,
    description: "The body is not JSON: `Content-Type` must be `application/json` (a charset, if any, UTF-8; `+json` types are refused)."
  })
) {}

export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()(
  "RequestTimeout",
  { code: code("REQUEST_TIMEOUT"), message: Schema.String },
  HttpApiSchema.annotations({ status: 408, description: "The request took too long to arrive." })
) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { code: code("PAYLOAD_TOO_LARGE"), message: Schema.String },
  HttpApiSchema.annotations({ status: 413, description: "The request body is larger than BODY_LIMIT_BYTES (4 MiB by default)." })
) {}

export class RequestHeaderFieldsTooLarge extends Schema.TaggedError<RequestHeaderFieldsTooLarge>()(
  "RequestHeaderFieldsTooLarge",
  { code: code("REQUEST_HEADER_FIELDS_TOO_LARGE"), message: Schema.String },
  HttpApiSchema.annotations({ status: 431, description: "The request line or headers are too large." })
) {}

/** Stable codes of 400 answers that callers may want to tell apart. */
export const BadRequestCode = {
  validation: "VALIDATION_ERROR",
  malformedJson: "MALFORMED_JSON",
  invalidCursor: "INVALID_CURSOR",
  unknownTeam: "UNKNOWN_TEAM"
} as const

export const invalidCursor = () =>
  new BadRequest({ code: BadRequestCode.invalidCursor, message: "The cursor is not one this listing returned" })

export const unknownTeamId = () => new BadRequest({ code: BadRequestCode.unknownTeam, message: "Unknown teamId" })
