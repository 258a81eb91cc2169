import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  CompanyRole,
  CompanyRoleDetail,
  CompanyRoleDutiesParams,
  CompanyRoleListParams,
  CompanyRolePath
} from "@tks/domain/company-role"
import { DutyRow } from "@tks/domain/duty"
import { NotFound } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** Company roles, their curriculum, members and duties. */
export class CompanyRolesGroup extends HttpApiGroup.make("companyRoles")
  .add(
    HttpApiEndpoint.get("list", "/company-roles")
      .setUrlParams(CompanyRoleListParams)
      .addSuccess(Page(CompanyRole))
      .annotate(OpenApi.Summary, "List company roles")
      .annotate(OpenApi.Description, "Roles sorted alphabetically by name.")
      .pipe(requires(policies.companyRoles.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/company-roles/:id")
      .setPath(CompanyRolePath)
      .addSuccess(CompanyRoleDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a company role")
      .annotate(
        OpenApi.Description,
        "The role plus its curriculum and current members. A lesson resolves via /v1/lessons/{id}, a topic via /v1/topics/{id}. 404 when not visible to the caller."
      )
      .pipe(requires(policies.companyRoles.get))
  )
  .add(
    HttpApiEndpoint.get("duties", "/company-roles/:id/duties")
      .setPath(CompanyRolePath)
      .setUrlParams(CompanyRoleDutiesParams)
      .addSuccess(Page(DutyRow))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "List a company role's duties")
      .annotate(
        OpenApi.Description,
        "Duty rows ordered by entity type (TOPIC, ITEM, SPACE, CATEGORY) then name, only for entities the caller can read. A duty on a topic reaches every item on it; a duty on a space or category expands to one row per descendant, each with inheritedFrom."
      )
      .pipe(requires(policies.companyRoles.duties))
  )
  .middleware(Authentication) {}
