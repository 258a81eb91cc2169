import { randomBytes } from "node:crypto"

/**
 * A new signing secret as Standard Webhooks writes one: `whsec_` and the
 * base64 of the key, here 32 random bytes (the specification asks for 24
 * to 64).
 */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`
