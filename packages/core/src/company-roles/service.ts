import { Effect, Schema } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { CompanyRole, CompanyRoleDetail } from "@tks/domain/company-role"
import type { DutyRow, EntityType } from "@tks/domain/duty"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { defaultLimit } from "@tks/domain/pagination"
import { hasPermission } from "@tks/domain/permissions"
import { readerOf } from "../knowledge/access.js"
import { Cursors, pageOf } from "../shared/cursors.js"
import { Links } from "../shared/links.js"
import { iso } from "../shared/time.js"
import { CompanyRoleDutiesRepo, type DutyEntryRow, keyOf } from "./duties-repo.js"
import { type CompanyRoleRow, CompanyRolesRepo } from "./repo.js"
import type { PageParams } from "../shared/page-params.js"

const RoleKey = Schema.Tuple(Schema.String, Schema.String)
const Ordinal = Schema.Int.pipe(Schema.between(0, 3))
const DutyKey = Schema.Tuple(Ordinal, Schema.String, Schema.String, Ordinal, Schema.String, Schema.String)

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
 * SPEC 4.2. Every org role but external holds company-role.read and sees
 * every company role of its organization; an external account is refused the
 * list (403) and answered 404 for a single role, as if it were absent.
 */
export class CompanyRoles extends Effect.Service<CompanyRoles>()("@tks/core/CompanyRoles", {
  effect: Effect.gen(function*() {
    const repo = yield* CompanyRolesRepo
    const duties = yield* CompanyRoleDutiesRepo
    const cursors = yield* Cursors
    const links = yield* Links

    const notFound = () => new NotFound({ message: "No such company role" })

    /** GET /v1/company-roles: by name; `query` is a case-insensitive substring of the name. */
    const list = Effect.fn("CompanyRoles.list")(function*(
      actor: Actor,
      params: PageParams & { readonly query?: string | undefined }
    ) {
      if (!hasPermission(actor.role, "company-role.read")) {
        return yield* new Forbidden({ message: "Reading company roles needs the company-role.read permission" })
      }
      const query = params.query === undefined || params.query === "" ? null : params.query
      const listing = JSON.stringify(["company-roles", actor.organizationId, query])
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, RoleKey)
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.page({ orgId: actor.organizationId, query, after, limit })
      return pageOf(rows, limit, roleView, (row) => cursors.encode(listing, [row.sort_name, row.id]))
    })

    /** GET /v1/company-roles/{id}: the role, its readable curriculum and its current holders. */
    const get = Effect.fn("CompanyRoles.get")(function*(actor: Actor, roleId: string) {
      if (!hasPermission(actor.role, "company-role.read")) return yield* notFound()
      const row = yield* repo.find(actor.organizationId, roleId, readerOf(actor))
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
      actor: Actor,
      roleId: string,
      params: PageParams & { readonly entityType?: EntityType | undefined }
    ) {
      if (!hasPermission(actor.role, "company-role.read")) return yield* notFound()
      if (!(yield* repo.exists(actor.organizationId, roleId))) return yield* notFound()
      const entityType = params.entityType ?? null
      // What is listed depends on what the caller can read, so the cursor is bound to the caller too.
      const listing = JSON.stringify(["company-role-duties", actor.organizationId, roleId, actor.userId, entityType])
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, DutyKey)
      const limit = params.limit ?? defaultLimit
      const rows = yield* duties.page({
        orgId: actor.organizationId,
        roleId,
        reader: readerOf(actor),
        entityType,
        after,
        limit
      })
      return pageOf(rows, limit, dutyView, (row) => cursors.encode(listing, keyOf(row)))
    })

    return { list, get, listDuties } as const
  }),
  dependencies: [CompanyRolesRepo.Default, CompanyRoleDutiesRepo.Default, Cursors.Default, Links.Default]
}) {}
