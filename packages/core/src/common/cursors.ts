import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Config, Effect, Either, Option, Redacted, Schema } from "effect"
import { type BadRequest, invalidCursor } from "@tks/domain/errors"
import { InstanceSettingsRepo } from "./instance-settings-repo.js"

/**
 * Opaque, tamper-evident cursors: the payload is what the next
 * page needs (the sort key of the last row served, and the walk's total);
 * the signature covers the payload and the listing (endpoint, organization,
 * caller and filters), so a cursor from another listing or a forged one is
 * refused with 400 before any SQL runs.
 */
export class Cursors extends Effect.Service<Cursors>()("@tks/core/Cursors", {
  effect: Effect.map(Effect.suspend(() => loadSecret), (secret) => makeCursors(secret)),
  dependencies: [InstanceSettingsRepo.Default]
}) {}

/** The cursor codec for a signing secret. */
export const makeCursors = (secret: string) => {
  const sign = (listing: string, payload: string) =>
    createHmac("sha256", secret).update(listing).update("\u0000").update(payload).digest().subarray(0, 18)

  const encode = (listing: string, value: unknown): string => {
    const payload = Buffer.from(JSON.stringify(value)).toString("base64url")
    return `${payload}.${sign(listing, payload).toString("base64url")}`
  }

  const decode = <A, I>(listing: string, cursor: string, schema: Schema.Schema<A, I>): Effect.Effect<A, BadRequest> => {
    const [payload, signature, ...rest] = cursor.split(".")
    if (payload === undefined || signature === undefined || rest.length > 0) return Effect.fail(invalidCursor())
    // Compare the encoded text: base64url decoding ignores stray characters, so comparing bytes would accept them.
    const expected = Buffer.from(sign(listing, payload).toString("base64url"))
    const given = Buffer.from(signature)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Effect.fail(invalidCursor())
    const decoded = Either.try(() => JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown).pipe(
      Either.flatMap((json) => Schema.decodeUnknownEither(schema)(json))
    )
    return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(invalidCursor())
  }

  return { encode, decode } as const
}

/** CURSOR_SECRET when set; otherwise one generated once and kept in the database, so every replica agrees. */
const loadSecret = Effect.gen(function*() {
  const configured = yield* Config.option(Config.redacted("CURSOR_SECRET"))
  if (Option.isSome(configured)) return Redacted.value(configured.value)
  const settings = yield* InstanceSettingsRepo
  return yield* settings.getOrCreate("cursor_secret", randomBytes(32).toString("base64url"))
}).pipe(Effect.orDie)
