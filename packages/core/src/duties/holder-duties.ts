import { Effect } from "effect"
import type { DutyRow, EntityType } from "@tks/domain/duty"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { type DutyEntryRow, type DutyHolderRef, dutyOrder, HolderDutiesRepo } from "./holder-duties-repo.js"

/**
 * One holder's duties as a company role's duty listing gives them (DutyRow), shared by
 * the company-role listing and the third-party listing. The caller has
 * already found the holder in its organization; this pages its duties over
 * the live graph the caller can read.
 */
export class HolderDuties extends Effect.Service<HolderDuties>()("@tks/core/HolderDuties", {
  effect: Effect.gen(function*() {
    const repo = yield* HolderDutiesRepo
    const pagination = yield* Pagination
    const links = yield* Links

    // The keys in the wire schema's order: the answer is sent as built (apps/server wire answers).
    const view = (row: DutyEntryRow): DutyRow => ({
      role: row.raci,
      entityType: row.entity_type,
      entityId: row.entity_id,
      entityName: row.entity_name,
      inheritedFrom: row.inherited_type === null || row.inherited_id === null
        ? null
        : { entityType: row.inherited_type, entityId: row.inherited_id },
      tierQualifier: row.tier_qualifier,
      ...(row.tier_qualifier === "ALL" || row.tier_id === null ? {} : { advancementTierId: row.tier_id }),
      advancementTierLabel: row.tier_qualifier === "ALL" ? null : row.tier_label,
      url: links.entity(row.entity_type, row.entity_id)
    })

    /** `listing` names the endpoint the cursor is bound to. */
    const page = (
      access: Access,
      listing: string,
      holder: DutyHolderRef,
      params: PageParams & { readonly entityType?: EntityType | undefined }
    ) => {
      const { organizationId: orgId, userId } = access.actor
      const entityType = params.entityType ?? null
      const reader = readerOf(access.actor)
      return pagination.page({
        // What is listed depends on what the caller can read, so the cursor is bound to the caller too.
        listing: [listing, orgId, holder.id, userId, entityType],
        params,
        keyset: dutyOrder,
        rows: (after, limit) => repo.page({ orgId, holder, reader, entityType, after, limit }),
        view
      })
    }

    return { page } as const
  }),
  dependencies: [HolderDutiesRepo.Default, Pagination.Default, Links.Default]
}) {}
