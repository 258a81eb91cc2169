import { generateSecret } from "../auth/token-secret.js"

const DIRECTORY_TOKEN_PREFIX = "scim_"

/** A directory (SCIM) bearer token: `scim_` + 32 random bytes as base64url, shown once; only its SHA-256 is stored. */
export const generateDirectoryToken = (): string => generateSecret(DIRECTORY_TOKEN_PREFIX)

/**
 * Whether a bearer credential can be a directory token by its look; anything
 * else is refused before the database is asked (a token is 48 characters;
 * 200 leaves room without letting a huge header be hashed).
 */
export const looksLikeDirectoryToken = (token: string): boolean =>
  token.startsWith(DIRECTORY_TOKEN_PREFIX) && token.length <= 200
