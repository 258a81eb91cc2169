import { Effect } from "effect"
import type { CompanyRole, CompanyRoleDetail, CompanyRoleDutiesParams, CompanyRoleListParams } from "@tks/domain/company-role"
import type { DutyRow } from "@tks/domain/duty"
import { NotFound } from "@tks/domain/errors"
import type { CompanyRoleId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { byName } from "../shared/keyset.js"
import { Links } from "../shared/links.js"
import { Pagination } from "../shared/pagination.js"
import { iso } from "../shared/time.js"
import { CompanyRoleDutiesRepo, type DutyEntryRow, dutyOrder } from "./duties-repo.js"
import { type CompanyRoleRow, CompanyRolesRepo } from "./repo.js"

const roleView = (row: CompanyRoleRow): CompanyRole => ({
  id: row.id,
  name: row.name,
  description: row.description,
  memberCount: row.member_count,
  parentRoleId: row.parent_role_id,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

/**
 * SPEC 4.2. Whoever passes the policy (company-role.read: every org role but
 * external) sees every company role of the organization; what a role's
 * curriculum and duties show is limited to what the caller can read.
 */
export class CompanyRoles extends Effect.Service<CompanyRoles>()("@tks/core/CompanyRoles", {
  effect: Effect.gen(function*() {
    const repo = yield* CompanyRolesRepo
    const duties = yield* CompanyRoleDutiesRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const notFound = () => new NotFound({ message: "No such company role" })

    /** GET /v1/company-roles: by name; `query` is a case-insensitive substring of the name. */
    const list = Effect.fn("CompanyRoles.list")(function*(access: Access, params: CompanyRoleListParams) {
      const orgId = access.actor.organizationId
      const query = params.query === undefined || params.query === "" ? null : params.query
      return yield* pagination.page({
        listing: ["company-roles", orgId, query],
        params,
        keyset: byName,
        rows: (after, limit) => repo.page({ orgId, query, after, limit }),
        view: roleView
      })
    })

    /** GET /v1/company-roles/{id}: the role, its readable curriculum and its current holders. */
    const get = Effect.fn("CompanyRoles.get")(function*(access: Access, roleId: CompanyRoleId) {
      const row = yield* repo.find(access.actor.organizationId, roleId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const detail: CompanyRoleDetail = { ...roleView(row), curriculum: row.curriculum, members: row.members }
      return detail
    })

    const dutyView = (row: DutyEntryRow): DutyRow => {
      const base = {
        role: row.raci,
        entityType: row.entity_type,
        entityId: row.entity_id,
        entityName: row.entity_name,
        inheritedFrom: row.inherited_type === null || row.inherited_id === null
          ? null
          : { entityType: row.inherited_type, entityId: row.inherited_id },
        tierQualifier: row.tier_qualifier,
        advancementTierLabel: row.tier_qualifier === "ALL" ? null : row.tier_label,
        url: links.entity(row.entity_type, row.entity_id)
      }
      return row.tier_qualifier === "ALL" || row.tier_id === null ? base : { ...base, advancementTierId: row.tier_id }
    }

    /** GET /v1/company-roles/{id}/duties: the role's duties expanded over the live graph the caller can read. */
    const listDuties = Effect.fn("CompanyRoles.listDuties")(function*(
      access: Access,
      roleId: CompanyRoleId,
      params: CompanyRoleDutiesParams
    ) {
      const { organizationId: orgId, userId } = access.actor
      if (!(yield* repo.exists(orgId, roleId))) return yield* notFound()
      const entityType = params.entityType ?? null
      const reader = readerOf(access.actor)
      return yield* pagination.page({
        // What is listed depends on what the caller can read, so the cursor is bound to the caller too.
        listing: ["company-role-duties", orgId, roleId, userId, entityType],
        params,
        keyset: dutyOrder,
        rows: (after, limit) => duties.page({ orgId, roleId, reader, entityType, after, limit }),
        view: dutyView
      })
    })

    return { list, get, listDuties } as const
  }),
  dependencies: [CompanyRolesRepo.Default, CompanyRoleDutiesRepo.Default, Pagination.Default, Links.Default]
}) {}
