import type { DirectoryConnection } from "@tks/domain/administration"
import { iso, isoOrNull } from "../common/time.js"
import type { DirectoryConnectionRow } from "./repo.js"
import { directoryTokenActive } from "./rules.js"

/** The directory connection as GET /v1/directory-sync shows it; `now` is the database's clock. */
export const connectionView = (row: DirectoryConnectionRow, now: Date): DirectoryConnection => ({
  status: row.status,
  tokenCreatedAt: isoOrNull(row.token_created_at),
  tokenLastUsedAt: isoOrNull(row.token_last_used_at),
  tokenExpiresAt: isoOrNull(row.token_expires_at),
  tokenActive: directoryTokenActive(
    { exists: row.token_exists, revokedAt: row.token_revoked_at, expiresAt: row.token_expires_at },
    now
  ),
  lastSyncAt: isoOrNull(row.last_sync_at),
  pausedAt: isoOrNull(row.paused_at),
  pausedReason: row.paused_reason,
  sendWelcomeImmediately: row.send_welcome_immediately,
  countProvisioned: row.count_provisioned,
  countUpdated: row.count_updated,
  countDeactivated: row.count_deactivated,
  countSkipped: row.count_skipped,
  createdAt: iso(row.created_at)
})
