import type { DirectoryConnectionStatus, DirectoryOperation, DirectoryOutcome } from "@tks/domain/administration"

/** What one directory event adds to its connection's counters, and whether it moves `lastSyncAt`. */
export interface CounterMoves {
  readonly provisioned: number
  readonly updated: number
  readonly deactivated: number
  readonly skipped: number
  readonly synced: boolean
}

const unmoved: CounterMoves = { provisioned: 0, updated: 0, deactivated: 0, skipped: 0, synced: false }

/**
 * The connection's counters count what the directory did to people: an
 * applied CREATE provisioned someone, an applied UPDATE or REACTIVATE
 * updated them, an applied DEACTIVATE or DELETE deactivated them, and any
 * write skipped (nothing to do, or not ours to do) is counted as skipped.
 * Refused and failed writes count nothing (they are in the events). LIST
 * and AUTH are not writes and never count. `lastSyncAt` is the last
 * request that changed something: an applied write whose caller says it
 * changed a record.
 */
export const countersMovedBy = (operation: DirectoryOperation, outcome: DirectoryOutcome, changed: boolean): CounterMoves => {
  if (operation === "LIST" || operation === "AUTH") return unmoved
  if (outcome === "SKIPPED") return { ...unmoved, skipped: 1 }
  if (outcome !== "APPLIED") return unmoved
  switch (operation) {
    case "CREATE":
      return { ...unmoved, provisioned: 1, synced: changed }
    case "UPDATE":
    case "REACTIVATE":
      return { ...unmoved, updated: 1, synced: changed }
    case "DEACTIVATE":
    case "DELETE":
      return { ...unmoved, deactivated: 1, synced: changed }
  }
}

/** The reason codes of a refused directory request, as its AUTH REJECTED event records them. */
export const DirectoryAuthReason = {
  tokenRevoked: "TOKEN_REVOKED",
  tokenExpired: "TOKEN_EXPIRED",
  connectionPaused: "CONNECTION_PAUSED",
  connectionDisconnected: "CONNECTION_DISCONNECTED"
} as const
export type DirectoryAuthReason = (typeof DirectoryAuthReason)[keyof typeof DirectoryAuthReason]

/** A connection found by a directory token's hash, as the token check reads it (booleans by the database's clock). */
export interface TokenMatch {
  /** The token is the connection's current one; false: the one its last rotation replaced. */
  readonly current: boolean
  readonly revoked: boolean
  readonly expired: boolean
  readonly expiresAt: Date | null
  readonly status: DirectoryConnectionStatus
  readonly pausedReason: string | null
}

export interface AuthRefusal {
  readonly status: 401 | 403
  readonly reason: DirectoryAuthReason
  /** What the directory is told (the SCIM error's `detail`), and the event's message. */
  readonly detail: string
}

/**
 * Whether a known token may call: the token first (a replaced, revoked or
 * expired token is 401 whatever the connection's state, since the
 * directory needs a new token either way), then the connection: a
 * disconnected one is 401 (its token is no longer one we accept), a paused
 * one 403 (the token is good; the organization stopped the sync, and says
 * why). PENDING, ACTIVE and ERROR connections accept their token.
 */
export const authRefusal = (match: TokenMatch): AuthRefusal | null => {
  if (!match.current) {
    return { status: 401, reason: DirectoryAuthReason.tokenRevoked, detail: "the directory token was replaced by a newer one; use the current token" }
  }
  if (match.revoked) return { status: 401, reason: DirectoryAuthReason.tokenRevoked, detail: "the directory token was revoked" }
  if (match.expired) {
    const when = match.expiresAt === null ? "" : ` on ${match.expiresAt.toISOString()}`
    return { status: 401, reason: DirectoryAuthReason.tokenExpired, detail: `the directory token expired${when}` }
  }
  if (match.status === "DISCONNECTED") {
    return { status: 401, reason: DirectoryAuthReason.connectionDisconnected, detail: "the directory connection is disconnected" }
  }
  if (match.status === "PAUSED") {
    const why = match.pausedReason === null ? "" : `: ${match.pausedReason}`
    return { status: 403, reason: DirectoryAuthReason.connectionPaused, detail: `the directory connection is paused${why}` }
  }
  return null
}

/**
 * The status a paused connection resumes to: ACTIVE once the connection has
 * been used (its token authenticated a request, or a request changed
 * something), PENDING while it still waits for the directory's first
 * request. A token's first successful use turns PENDING into ACTIVE anyway.
 */
export const resumedStatus = (used: { readonly tokenLastUsedAt: Date | null; readonly lastSyncAt: Date | null }): "ACTIVE" | "PENDING" =>
  used.tokenLastUsedAt !== null || used.lastSyncAt !== null ? "ACTIVE" : "PENDING"
