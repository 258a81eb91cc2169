import { Effect, Schema } from "effect"
import type { Actor } from "@tks/domain/actor"
import type {
  DirectoryConnection,
  DirectoryEvent,
  DirectoryOutcome,
  DirectorySync,
  Finding,
  OrgChartVerification
} from "@tks/domain/administration"
import { Forbidden } from "@tks/domain/errors"
import { verificationState } from "@tks/domain/org-chart"
import { defaultLimit } from "@tks/domain/pagination"
import { hasPermission, type Permission } from "@tks/domain/permissions"
import { Cursors, pageOf } from "../shared/cursors.js"
import { iso, isoOrNull } from "../shared/time.js"
import { AdministrationRepo, type DirectoryConnectionRow, type NewestKey } from "./repo.js"
import { directoryTokenActive } from "./rules.js"
import type { PageParams } from "../shared/page-params.js"

/** The default re-verification interval (SPEC 2.12) when no record exists yet. */
const defaultIntervalDays = 90

/** A newest-first cursor key: an exact UTC timestamp (microseconds) and an id, both checked before any SQL. */
const NewestKeySchema: Schema.Schema<NewestKey, readonly [string, string]> = Schema.Tuple(
  Schema.String.pipe(
    Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    Schema.filter((at) => !Number.isNaN(Date.parse(at)))
  ),
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
)

const requirePermission = (actor: Actor, permission: Permission, what: string) =>
  hasPermission(actor.role, permission)
    ? Effect.void
    : Effect.fail(new Forbidden({ message: `Reading ${what} needs the ${permission} permission` }))

const connectionView = (row: DirectoryConnectionRow, now: Date): DirectoryConnection => ({
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

/** SPEC 4.8: findings, org-chart verification and directory sync, read by the caller's organization only. */
export class Administration extends Effect.Service<Administration>()("@tks/core/Administration", {
  effect: Effect.gen(function*() {
    const repo = yield* AdministrationRepo
    const cursors = yield* Cursors

    const findings = Effect.fn("Administration.findings")(function*(actor: Actor, params: PageParams) {
      yield* requirePermission(actor, "organization.update", "findings")
      const listing = `findings:${actor.organizationId}`
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, NewestKeySchema)
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.findings({ orgId: actor.organizationId, after, limit })
      return pageOf(
        rows,
        limit,
        (row): Finding => ({
          id: row.id,
          content: row.content,
          source: { type: row.source_type, systemSourceType: row.system_source_type },
          createdAt: iso(row.created_at),
          updatedAt: iso(row.updated_at)
        }),
        (row) => cursors.encode(listing, [row.cursor_at, row.id])
      )
    })

    const orgChartVerification = Effect.fn("Administration.orgChartVerification")(function*(actor: Actor) {
      yield* requirePermission(actor, "company-role.read", "the org-chart verification")
      const row = yield* repo.verification(actor.organizationId)
      // No record: never verified, on the default interval. "Now" is the database's clock.
      const lastVerifiedAt = row?.last_verified_at ?? null
      const intervalDays = row?.interval_days ?? defaultIntervalDays
      const state = verificationState(lastVerifiedAt, intervalDays, row?.now ?? new Date())
      const view: OrgChartVerification = {
        status: state.status,
        lastVerifiedAt: isoOrNull(lastVerifiedAt),
        intervalDays,
        nextDueAt: isoOrNull(state.nextDueAt),
        isDue: state.isDue
      }
      return view
    })

    const directorySync = Effect.fn("Administration.directorySync")(function*(actor: Actor) {
      yield* requirePermission(actor, "organization.update", "directory sync")
      const row = yield* repo.directorySync(actor.organizationId)
      const view: DirectorySync = {
        // Reported, not enforced (SPEC 4.8): a connection of a lower plan is still shown.
        eligible: row?.plan === "enterprise",
        connection: row?.connection === undefined ? null : connectionView(row.connection, row.now)
      }
      return view
    })

    const directoryEvents = Effect.fn("Administration.directoryEvents")(function*(
      actor: Actor,
      params: PageParams & { readonly outcome?: DirectoryOutcome | undefined }
    ) {
      yield* requirePermission(actor, "organization.update", "directory-sync events")
      const outcome = params.outcome ?? null
      const listing = `directory-events:${actor.organizationId}:${outcome ?? "*"}`
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, NewestKeySchema)
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.directoryEvents({ orgId: actor.organizationId, outcome, after, limit })
      return pageOf(
        rows,
        limit,
        (row): DirectoryEvent => ({
          operation: row.operation,
          outcome: row.outcome,
          reason: row.reason,
          userName: row.user_name,
          createdAt: iso(row.created_at)
        }),
        (row) => cursors.encode(listing, [row.cursor_at, row.id])
      )
    })

    return { findings, orgChartVerification, directorySync, directoryEvents } as const
  }),
  dependencies: [AdministrationRepo.Default, Cursors.Default]
}) {}
