import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Config, Effect, Either, Option, Redacted, Schema } from "effect"
import { invalidCursor, type BadRequest } from "@tks/domain/errors"

/**
 * Opaque, tamper-evident keyset cursors (DESIGN 4): the payload is the sort
 * key of the last row served; the signature covers the payload and the
 * listing (endpoint, organization, caller and filters), so a cursor from
 * another listing or a forged one is refused with 400 before any SQL runs.
 */
export class Cursors extends Effect.Service<Cursors>()("@tks/core/Cursors", {
  effect: Effect.map(Effect.suspend(() => loadSecret), (secret) => makeCursors(secret))
}) {}

/** The cursor codec for a signing secret. */
export const makeCursors = (secret: string) => {
  const sign = (listing: string, payload: string) =>
    createHmac("sha256", secret).update(listing).update("\u0000").update(payload).digest().subarray(0, 18)

  const encode = (listing: string, key: ReadonlyArray<unknown>): string => {
    const payload = Buffer.from(JSON.stringify(key)).toString("base64url")
    return `${payload}.${sign(listing, payload).toString("base64url")}`
  }

  const decode = <A, I>(
    listing: string,
    cursor: string,
    key: Schema.Schema<A, I>
  ): Effect.Effect<A, BadRequest> => {
    const [payload, signature, ...rest] = cursor.split(".")
    if (payload === undefined || signature === undefined || rest.length > 0) return Effect.fail(invalidCursor())
    // Compare the encoded text: base64url decoding ignores stray characters, so comparing bytes would accept them.
    const expected = Buffer.from(sign(listing, payload).toString("base64url"))
    const given = Buffer.from(signature)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Effect.fail(invalidCursor())
    const decoded = Either.try(() => JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown).pipe(
      Either.flatMap((json) => Schema.decodeUnknownEither(key)(json))
    )
    return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(invalidCursor())
  }

  return { encode, decode } as const
}

/** CURSOR_SECRET when set; otherwise one generated once and kept in the database, so every replica agrees. */
const loadSecret = Effect.gen(function*() {
  const configured = yield* Config.option(Config.redacted("CURSOR_SECRET"))
  if (Option.isSome(configured)) return Redacted.value(configured.value)
  const sql = yield* SqlClient.SqlClient
  const candidate = randomBytes(32).toString("base64url")
  yield* sql`INSERT INTO instance_settings (key, value) VALUES ('cursor_secret', ${candidate}) ON CONFLICT (key) DO NOTHING`
  const rows = yield* sql<{ value: string }>`SELECT value FROM instance_settings WHERE key = 'cursor_secret'`
  return rows[0]?.value ?? candidate
}).pipe(Effect.orDie)

/** A page of rows fetched with `limit + 1`: the extra row only tells whether another page exists. */
export const pageOf = <Row, Out>(
  rows: ReadonlyArray<Row>,
  limit: number,
  toOut: (row: Row) => Out,
  cursorAfter: (row: Row) => string
): { readonly data: ReadonlyArray<Out>; readonly nextCursor: string | null } => {
  const page = rows.length > limit ? rows.slice(0, limit) : rows
  const last = page[page.length - 1]
  return {
    data: page.map(toOut),
    nextCursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null
  }
}
