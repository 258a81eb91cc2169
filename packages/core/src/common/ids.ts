import { randomBytes } from "node:crypto"
import { IdPrefix, type IdKind } from "@tks/domain/ids"

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
const RANDOM_CHARS = 20

const encode = (prefix: string, bytes: Uint8Array, offset: number): string => {
  let out = `${prefix}_`
  for (let i = offset; i < offset + RANDOM_CHARS; i++) out += alphabet[bytes[i]! & 31]
  return out
}

/** A new opaque id: the kind's prefix and 20 random base32 characters (100 bits). */
export const newId = (kind: IdKind): string => encode(IdPrefix[kind], randomBytes(RANDOM_CHARS), 0)

/**
 * `count` new ids of one kind, as `newId` makes them, for a statement that
 * writes many rows at once: one call for the random bytes of all of them
 * (a call per id was most of the cost of 20,000).
 */
export const newIds = (kind: IdKind, count: number): Array<string> => {
  const bytes = randomBytes(RANDOM_CHARS * count)
  const ids = new Array<string>(count)
  for (let i = 0; i < count; i++) ids[i] = encode(IdPrefix[kind], bytes, i * RANDOM_CHARS)
  return ids
}
