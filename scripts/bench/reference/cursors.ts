import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { readSetting, storeSetting } from "./statements/auth.js"
import type { Database } from "./db.js"

/**
 * The server's signed cursors (packages/core shared/cursors.ts) in plain
 * code: base64url JSON of `{ k, t }` (the last row's sort key and the walk's
 * total), then an HMAC-SHA256 of the listing and the payload, 18 bytes. The
 * same secret makes the same cursors: CURSOR_SECRET, or the one the first
 * instance stored in the database, which every replica reads.
 */
export interface Cursors {
  readonly encode: (listing: string, value: unknown) => string
  /** The payload, or undefined for a cursor this listing did not write. */
  readonly decode: (listing: string, cursor: string) => { readonly k: unknown; readonly t: unknown } | undefined
}

export const makeCursors = (secret: string): Cursors => {
  const sign = (listing: string, payload: string) =>
    createHmac("sha256", secret).update(listing).update("\u0000").update(payload).digest().subarray(0, 18)
  return {
    encode: (listing, value) => {
      const payload = Buffer.from(JSON.stringify(value)).toString("base64url")
      return `${payload}.${sign(listing, payload).toString("base64url")}`
    },
    decode: (listing, cursor) => {
      const [payload, signature, ...rest] = cursor.split(".")
      if (payload === undefined || signature === undefined || rest.length > 0) return undefined
      const expected = Buffer.from(sign(listing, payload).toString("base64url"))
      const given = Buffer.from(signature)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      try {
        const value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
        return typeof value === "object" && value !== null && "k" in value && "t" in value ? value : undefined
      } catch {
        return undefined
      }
    }
  }
}

/** CURSOR_SECRET when given, else the stored one (stored first when there is none, as the server does). */
export const loadCursorSecret = async (db: Database, configured: string | undefined): Promise<string> => {
  if (configured !== undefined) return configured
  const candidate = randomBytes(32).toString("base64url")
  await db.query(storeSetting("cursor_secret", candidate))
  const [row] = await db.query<{ value: string }>(readSetting("cursor_secret"))
  return row?.value ?? candidate
}
