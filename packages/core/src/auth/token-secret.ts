import { createHash, randomBytes } from "node:crypto"

const ACCESS_TOKEN_PREFIX = "tks_"

/** A bearer secret: `prefix` + 32 random bytes as base64url. Only its SHA-256 (`hashToken`) is ever stored. */
export const generateSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString("base64url")}`

/** Access tokens are `tks_` + 32 random bytes; only their SHA-256 is stored. */
export const generateTokenSecret = (): string => generateSecret(ACCESS_TOKEN_PREFIX)

/** Whether a bearer credential is one of this service's access tokens by its look (an identity provider's JWT never starts so). */
export const looksLikeAccessToken = (token: string): boolean => token.startsWith(ACCESS_TOKEN_PREFIX)

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")
