import { randomBytes } from "node:crypto"
import { IdPrefix, type IdKind } from "@tks/domain/ids"

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

/** A new opaque id: the kind's prefix and 20 random base32 characters (100 bits). */
export const newId = (kind: IdKind): string => {
  const bytes = randomBytes(20)
  let out = `${IdPrefix[kind]}_`
  for (const byte of bytes) out += alphabet[byte & 31]
  return out
}
