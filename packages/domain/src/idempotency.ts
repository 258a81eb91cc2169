import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { code } from "./errors.js"

/**
 * Idempotent writes: a POST, PUT or PATCH of /v1 may carry an
 * `Idempotency-Key`; the same key from the same access token with the same
 * request answers what the first one answered, and does nothing again.
 */

/** The request header, as Node names it (lower case). */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key"

/** The header on a stored answer sent again (always `true`; absent on a first answer). */
export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed"

/** How long a key's answer is kept; an older one is as if it never was. */
export const IDEMPOTENCY_RETENTION_HOURS = 24

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

// Printable ASCII: space to tilde.
const PRINTABLE = /^[\x20-\x7e]+$/

/** Why a key is refused (400), or undefined for a good one: 1 to 255 printable ASCII characters. */
export const idempotencyKeyProblem = (key: string): string | undefined => {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE.test(key)) {
    return `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`
  }
  return undefined
}

/**
 * What becomes of a keyed request's answer and of what the request did, by
 * its status:
 * - `kept`: the answer is stored with the request's writes, in the same
 *   transaction (every 2xx, 3xx and 4xx but 401 and 429);
 * - `not kept`: the writes stand but the answer is not stored, so the same
 *   key may be sent again (401: nothing ran; 429: retry later);
 * - `undone`: a 5xx; everything the request did is rolled back and nothing
 *   is stored, so a retry with the key runs it afresh.
 */
export type AnswerFate = "kept" | "not kept" | "undone"

export const fateOfAnswer = (status: number): AnswerFate =>
  status >= 500 ? "undone" : status === 401 || status === 429 ? "not kept" : "kept"

export class IdempotencyKeyInUse extends Schema.TaggedError<IdempotencyKeyInUse>()(
  "IdempotencyKeyInUse",
  {
    code: code("IDEMPOTENCY_KEY_IN_USE"),
    message: Schema.String
  },
  HttpApiSchema.annotations({
    status: 409,
    description:
      "IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key from this access token is still running; nothing was done. Retry once it has answered."
  })
) {}

export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  {
    code: code("IDEMPOTENCY_KEY_REUSED"),
    message: Schema.String
  },
  HttpApiSchema.annotations({
    status: 422,
    description:
      "IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used by this access token, within 24 hours, for a different request (method, path, query or body); nothing was done. Use a new key for a new request."
  })
) {}

export const idempotencyKeyInUse = () =>
  new IdempotencyKeyInUse({ message: "A request with this Idempotency-Key is still running; retry once it has answered" })

export const idempotencyKeyReused = () =>
  new IdempotencyKeyReused({
    message: "This Idempotency-Key was already used for a different request (method, path, query or body); use a new key"
  })
