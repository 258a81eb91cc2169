import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The errors every endpoint can answer with. Each encodes to the wire body
 * `{"code": "STABLE_CODE", "message": "human sentence", ...details}` (plus the
 * `_tag` the typed client discriminates on) with its HTTP status.
 *
 * `code` and `message` are declared schema fields, so they are own
 * enumerable properties and always reach the encoder (DESIGN pitfall 3).
 */
const code = <const C extends string>(value: C) =>
  Schema.Literal(value).pipe(Schema.propertySignature, Schema.withConstructorDefault(() => value))

/** One problem found in the caller's input. */
export class InputIssue extends Schema.Class<InputIssue>("InputIssue")({
  path: Schema.String,
  message: Schema.String
}) {}

export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  {
    code: Schema.String.pipe(Schema.propertySignature, Schema.withConstructorDefault(() => "BAD_REQUEST")),
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

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  {
    code: Schema.String.pipe(Schema.propertySignature, Schema.withConstructorDefault(() => "FORBIDDEN")),
    message: Schema.String
  },
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
    code: Schema.String.pipe(Schema.propertySignature, Schema.withConstructorDefault(() => "SERVICE_UNAVAILABLE")),
    message: Schema.String
  },
  HttpApiSchema.annotations({ status: 503, description: "A dependency is unavailable; safe to retry." })
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
