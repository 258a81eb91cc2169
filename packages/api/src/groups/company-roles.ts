import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CompanyRole, CompanyRoleDetail } from "@tks/domain/company-role"
import { DutyRow, EntityType } from "@tks/domain/duty"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { IdPath, PageParams } from "../params.js"
import { Authentication } from "../authentication.js"

/** SPEC 4.2: company roles, their curriculum, members and duties. */
export class CompanyRolesGroup extends HttpApiGroup.make("companyRoles")
  .add(
    HttpApiEndpoint.get("list", "/company-roles")
      .setUrlParams(
        Schema.Struct({
          query: Schema.optional(Schema.String.annotations({ description: "Case-insensitive match on the role name" })),
          ...PageParams
        })
      )
      .addSuccess(Page(CompanyRole))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List company roles")
      .annotate(OpenApi.Description, "Roles sorted alphabetically by name. Needs company-role.read (every role except external).")
  )
  .add(
    HttpApiEndpoint.get("get", "/company-roles/:id")
      .setPath(IdPath)
      .addSuccess(CompanyRoleDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a company role")
      .annotate(
        OpenApi.Description,
        "The role plus its curriculum and current members. A lesson resolves via /v1/lessons/{id}, a topic via /v1/topics/{id}. 404 when not visible to the caller."
      )
  )
  .add(
    HttpApiEndpoint.get("duties", "/company-roles/:id/duties")
      .setPath(IdPath)
      .setUrlParams(Schema.Struct({ entityType: Schema.optional(EntityType), ...PageParams }))
      .addSuccess(Page(DutyRow))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "List a company role's duties")
      .annotate(
        OpenApi.Description,
        "Duty rows ordered by entity type (TOPIC, ITEM, SPACE, CATEGORY) then name, only for entities the caller can read. A duty on a topic reaches every item on it; a duty on a space or category expands to one row per descendant, each with inheritedFrom."
      )
  )
  .middleware(Authentication) {}
