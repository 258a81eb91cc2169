import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DirectoryConnectionStatus } from "@tks/domain/administration"
import type { OrganizationId } from "@tks/domain/ids"

/** A connection as its acts read it, locked for the act's transaction. */
export interface LockedConnectionRow {
  readonly status: DirectoryConnectionStatus
  readonly token_created_at: Date | null
  readonly token_expires_at: Date | null
  readonly token_last_used_at: Date | null
  readonly last_sync_at: Date | null
  readonly paused_reason: string | null
}

/** A connection found by a token's hash, with what the token check needs judged by the database's clock. */
export interface TokenMatchRow {
  readonly org_id: OrganizationId
  readonly status: DirectoryConnectionStatus
  readonly paused_reason: string | null
  readonly current: boolean
  readonly revoked: boolean
  readonly expired: boolean
  readonly token_expires_at: Date | null
  /** The token's last use is unrecorded or over a minute old. */
  readonly use_stale: boolean
}

/**
 * How long a new token lasts: so many days, no expiry, or (a rotation) as
 * long as the token it replaces was given from its creation to its expiry.
 */
export type TokenLifetime = { readonly days: number } | "none" | "kept"

/** SQL of the directory connection: one row per organization, found by the organization or by a token's hash. */
export class DirectoryConnectionsRepo extends Effect.Service<DirectoryConnectionsRepo>()("@tks/core/DirectoryConnectionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The organization's connection, locked until the transaction ends; undefined when it has none. */
    const lock = (orgId: OrganizationId) =>
      sql<LockedConnectionRow>`
        SELECT status, token_created_at, token_expires_at, token_last_used_at, last_sync_at, paused_reason
        FROM directory_connections WHERE org_id = ${orgId} FOR UPDATE`.pipe(Effect.map((rows) => rows[0]))

    const organizationExists = (orgId: OrganizationId) =>
      sql`SELECT 1 FROM organizations WHERE id = ${orgId}`.pipe(Effect.map((rows) => rows.length > 0))

    const expiryOf = (lifetime: TokenLifetime) =>
      lifetime === "none"
        ? sql`NULL`
        : lifetime === "kept"
        ? sql`CASE WHEN token_created_at IS NULL OR token_expires_at IS NULL THEN NULL
                ELSE now() + (token_expires_at - token_created_at) END`
        : sql`now() + ${lifetime.days}::int * interval '1 day'`

    /**
     * A new PENDING connection with its token; false when the organization
     * has one already, or there is no such organization.
     */
    const insert = (orgId: OrganizationId, tokenHash: string, lifetime: TokenLifetime) =>
      sql`
        INSERT INTO directory_connections (org_id, status, token_hash, token_created_at, token_expires_at)
        SELECT o.id, 'PENDING', ${tokenHash}, now(), ${expiryOf(lifetime)}
        FROM organizations o WHERE o.id = ${orgId}
        ON CONFLICT (org_id) DO NOTHING
        RETURNING org_id`.pipe(Effect.map((rows) => rows.length > 0))

    /**
     * Gives the connection a new token: the current one (if any) becomes the
     * replaced one, which no longer authenticates; the new one is unused and
     * not revoked. `reconnect` also makes the connection PENDING again and
     * clears a pause; otherwise its status, counters and pause are kept.
     */
    const replaceToken = (orgId: OrganizationId, tokenHash: string, lifetime: TokenLifetime, reconnect: boolean) =>
      sql`
        UPDATE directory_connections SET
          previous_token_hash = CASE WHEN token_hash IS NULL THEN previous_token_hash ELSE token_hash END,
          previous_token_replaced_at = CASE WHEN token_hash IS NULL THEN previous_token_replaced_at ELSE now() END,
          token_expires_at = ${expiryOf(lifetime)},
          token_hash = ${tokenHash},
          token_created_at = now(),
          token_last_used_at = NULL,
          token_revoked_at = NULL
          ${reconnect ? sql`, status = 'PENDING', paused_at = NULL, paused_reason = NULL` : sql``}
        WHERE org_id = ${orgId}`.pipe(Effect.asVoid)

    const pause = (orgId: OrganizationId, reason: string | null) =>
      sql`UPDATE directory_connections SET status = 'PAUSED', paused_at = now(), paused_reason = ${reason}
          WHERE org_id = ${orgId}`.pipe(Effect.asVoid)

    const resume = (orgId: OrganizationId, status: "ACTIVE" | "PENDING") =>
      sql`UPDATE directory_connections SET status = ${status}, paused_at = NULL, paused_reason = NULL
          WHERE org_id = ${orgId}`.pipe(Effect.asVoid)

    /**
     * The connection whose current token, or whose last replaced token, has
     * this hash (each found by its unique index).
     */
    const findByToken = (tokenHash: string) =>
      sql<TokenMatchRow>`
        SELECT org_id, status, paused_reason, token_expires_at,
          (token_hash IS NOT DISTINCT FROM ${tokenHash}) AS current,
          (token_revoked_at IS NOT NULL) AS revoked,
          (token_expires_at IS NOT NULL AND token_expires_at <= now()) AS expired,
          (token_last_used_at IS NULL OR token_last_used_at < now() - interval '1 minute') AS use_stale
        FROM directory_connections
        WHERE token_hash = ${tokenHash} OR previous_token_hash = ${tokenHash}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Records the token's use: its last use now, and a PENDING connection
     * ACTIVE. Only while the token is still the connection's and the
     * connection accepts requests (a rotation or a pause in between wins);
     * answers the status then, or undefined when nothing matched.
     */
    const recordUse = (orgId: OrganizationId, tokenHash: string) =>
      sql<{ readonly status: DirectoryConnectionStatus }>`
        UPDATE directory_connections
        SET token_last_used_at = now(), status = CASE WHEN status = 'PENDING' THEN 'ACTIVE' ELSE status END
        WHERE org_id = ${orgId} AND token_hash = ${tokenHash} AND status IN ('PENDING', 'ACTIVE', 'ERROR')
        RETURNING status`.pipe(Effect.map((rows) => rows[0]?.status))

    return { lock, organizationExists, insert, replaceToken, pause, resume, findByToken, recordUse } as const
  })
}) {}
