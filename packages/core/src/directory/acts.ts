import type { AuditChange } from "@tks/domain/audit"
import type { Caller } from "@tks/domain/caller"
import type { OrganizationId } from "@tks/domain/ids"
import type { ActRecord } from "../journal/journal.js"

/** The connection's fields an act changed, as its audit row shows them: never the token, only its dates. */
export interface ConnectionFields {
  readonly status: string
  readonly tokenCreatedAt: string | null
  readonly tokenExpiresAt: string | null
  readonly pausedReason: string | null
}

type Action =
  | "directory_connection.connected"
  | "directory_token.rotated"
  | "directory_connection.paused"
  | "directory_connection.resumed"

/**
 * An act on the organization's directory connection (the connection is the
 * organization's one, so its id is the organization's), each field old and
 * new (old absent when the connection is new); the journal leaves out the
 * fields that did not change, so a rotation shows the token's dates and a
 * pause the status and reason.
 */
export const connectionAct = (
  caller: Caller,
  orgId: OrganizationId,
  action: Action,
  before: ConnectionFields | undefined,
  after: ConnectionFields
): ActRecord => {
  // A new connection has no pause to show.
  const fields: ReadonlyArray<keyof ConnectionFields> = before === undefined
    ? ["status", "tokenCreatedAt", "tokenExpiresAt"]
    : ["status", "tokenCreatedAt", "tokenExpiresAt", "pausedReason"]
  const changes: Record<string, AuditChange> = {}
  for (const field of fields) changes[field] = before === undefined ? { new: after[field] } : { old: before[field], new: after[field] }
  return { caller, orgId, action, targets: [{ type: "directory_connection", id: orgId }], changes }
}
