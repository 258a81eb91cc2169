import type { Caller } from "@tks/domain/caller"
import type { Scope } from "@tks/domain/roles"
import type { ActRecord } from "../journal/journal.js"
import type { RevokedTokenRow } from "./repo.js"

/** A token issued: who holds it and what it may do, never its value. */
export const tokenIssued = (
  caller: Caller,
  token: {
    readonly id: string
    readonly organizationId: string
    readonly userId: string
    readonly name: string | null
    readonly scopes: ReadonlyArray<Scope>
    readonly expiresAt: Date | null
  }
): ActRecord => ({
  caller,
  orgId: token.organizationId,
  action: "access_token.issued",
  targets: [{ type: "access_token", id: token.id }, { type: "person", id: token.userId }],
  changes: {
    name: { new: token.name },
    scopes: { new: [...token.scopes] },
    expiresAt: { new: token.expiresAt === null ? null : token.expiresAt.toISOString() }
  }
})

export const tokenRevoked = (caller: Caller, token: RevokedTokenRow): ActRecord => ({
  caller,
  orgId: token.org_id,
  action: "access_token.revoked",
  targets: [{ type: "access_token", id: token.id }, { type: "person", id: token.user_id }],
  changes: { revoked: { old: false, new: true } }
})
