import { createHash, randomBytes } from "node:crypto"

/** Access tokens are `tks_` + 32 random bytes; only their SHA-256 is stored. */
export const generateTokenSecret = (): string => `tks_${randomBytes(32).toString("base64url")}`

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")
