import { Effect } from "effect"
import type {
  DirectoryEvent,
  DirectoryEventParams,
  DirectorySync,
  Finding,
  OrgChartVerification
} from "@tks/domain/administration"
import { verificationState } from "@tks/domain/org-chart"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import { newestFirst } from "../common/keyset.js"
import { Pagination } from "../common/pagination.js"
import { iso, isoOrNull } from "../common/time.js"
import { connectionView } from "./connection-view.js"
import { AdministrationRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/** The default re-verification interval when no record exists yet. */
const defaultIntervalDays = 90

/** Findings, org-chart verification and directory sync, read by the caller's organization only. */
export class Administration extends Effect.Service<Administration>()("@tks/core/Administration", {
  effect: Effect.gen(function*() {
    const repo = yield* AdministrationRepo
    const pagination = yield* Pagination

    const findings = traced("Administration.findings")(function*(access: Access, params: PageParams) {
      const orgId = access.actor.organizationId
      return yield* pagination.page({
        listing: ["findings", orgId],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.findings({ orgId, after, limit }),
        view: (row): Finding => ({
          id: row.id,
          content: row.content,
          source: { type: row.source_type, systemSourceType: row.system_source_type },
          createdAt: iso(row.created_at),
          updatedAt: iso(row.updated_at)
        })
      })
    })

    const orgChartVerification = traced("Administration.orgChartVerification")(function*(access: Access) {
      const row = yield* repo.verification(access.actor.organizationId)
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

    const directorySync = traced("Administration.directorySync")(function*(access: Access) {
      const row = yield* repo.directorySync(access.actor.organizationId)
      const view: DirectorySync = {
        // Reported, not enforced: a connection of a lower plan is still shown.
        eligible: row?.plan === "enterprise",
        connection: row?.connection === undefined ? null : connectionView(row.connection, row.now)
      }
      return view
    })

    const directoryEvents = traced("Administration.directoryEvents")(function*(
      access: Access,
      params: DirectoryEventParams
    ) {
      const orgId = access.actor.organizationId
      const outcome = params.outcome ?? null
      return yield* pagination.page({
        listing: ["directory-events", orgId, outcome],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.directoryEvents({ orgId, outcome, after, limit }),
        view: (row): DirectoryEvent => ({
          operation: row.operation,
          outcome: row.outcome,
          reason: row.reason,
          userName: row.user_name,
          createdAt: iso(row.created_at)
        })
      })
    })

    return { findings, orgChartVerification, directorySync, directoryEvents } as const
  }),
  dependencies: [AdministrationRepo.Default, Pagination.Default]
}) {}
