import { Effect } from "effect"
import type { CompanyRole, CompanyRoleDetail, CompanyRoleDutiesParams, CompanyRoleListParams } from "@tks/domain/company-role"
import { NotFound } from "@tks/domain/errors"
import type { CompanyRoleId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { HolderDuties } from "../duties/holder-duties.js"
import { readerOf } from "../knowledge/access.js"
import { byName } from "../common/keyset.js"
import { Pagination } from "../common/pagination.js"
import { iso } from "../common/time.js"
import { type CompanyRoleRow, CompanyRolesRepo } from "./repo.js"
import { traced } from "../common/traced.js"

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
 * Whoever passes the policy (company-role.read: every org role but
 * external) sees every company role of the organization; what a role's
 * curriculum and duties show is limited to what the caller can read.
 */
export class CompanyRoles extends Effect.Service<CompanyRoles>()("@tks/core/CompanyRoles", {
  effect: Effect.gen(function*() {
    const repo = yield* CompanyRolesRepo
    const duties = yield* HolderDuties
    const pagination = yield* Pagination

    const notFound = () => new NotFound({ message: "No such company role" })

    /** GET /v1/company-roles: by name; `query` is a case-insensitive substring of the name. */
    const list = traced("CompanyRoles.list")(function*(access: Access, params: CompanyRoleListParams) {
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
    const get = traced("CompanyRoles.get")(function*(access: Access, roleId: CompanyRoleId) {
      const row = yield* repo.find(access.actor.organizationId, roleId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const detail: CompanyRoleDetail = { ...roleView(row), curriculum: row.curriculum, members: row.members }
      return detail
    })

    /** GET /v1/company-roles/{id}/duties: the role's duties expanded over the live graph the caller can read. */
    const listDuties = traced("CompanyRoles.listDuties")(function*(
      access: Access,
      roleId: CompanyRoleId,
      params: CompanyRoleDutiesParams
    ) {
      if (!(yield* repo.exists(access.actor.organizationId, roleId))) return yield* notFound()
      return yield* duties.page(access, "company-role-duties", { type: "role", id: roleId }, params)
    })

    return { list, get, listDuties } as const
  }),
  dependencies: [CompanyRolesRepo.Default, HolderDuties.Default, Pagination.Default]
}) {}
