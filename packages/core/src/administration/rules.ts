/** The directory token's stored state, as much as `tokenActive` needs. */
interface DirectoryTokenState {
  readonly exists: boolean
  readonly revokedAt: Date | null
  readonly expiresAt: Date | null
}

/**
 * The directory's token is active when it exists, was not
 * revoked and has not expired; no expiry chosen means it never expires. It is
 * computed at read time, so an expired token changes nothing stored, and
 * revoking it leaves the connection's status as it was.
 */
export const directoryTokenActive = (token: DirectoryTokenState, now: Date): boolean =>
  token.exists && token.revokedAt === null && (token.expiresAt === null || token.expiresAt.getTime() > now.getTime())
