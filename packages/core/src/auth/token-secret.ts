import { createHash, randomBytes } from "node:crypto"

const ACCESS_TOKEN_PREFIX = "tks_"

/** Access tokens are `tks_` + 32 random bytes; only their SHA-256 is stored. */
export const generateTokenSecret = (): string => `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`

/** Whether a bearer credential is one of this service's access tokens by its look (an identity provider's JWT never starts so). */
export const looksLikeAccessToken = (token: string): boolean => token.startsWith(ACCESS_TOKEN_PREFIX)

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")
