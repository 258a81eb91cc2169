import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DirectoryEvent, DirectoryOutcome, DirectorySync, Finding, OrgChartVerification } from "@tks/domain/administration"
import { Forbidden } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { PageParams } from "../params.js"
import { Authentication } from "../authentication.js"

/** SPEC 4.8: administration reads. */
export class AdministrationGroup extends HttpApiGroup.make("administration")
  .add(
    HttpApiEndpoint.get("findings", "/findings")
      .setUrlParams(Schema.Struct(PageParams))
      .addSuccess(Page(Finding))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List findings")
      .annotate(OpenApi.Description, "Findings newest first. Needs organization.update (owner, admin, billing admin).")
  )
  .add(
    HttpApiEndpoint.get("orgChartVerification", "/org-chart/verification")
      .addSuccess(OrgChartVerification)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Read the org-chart verification status")
      .annotate(OpenApi.Description, "Needs company-role.read (every role except external).")
  )
  .add(
    HttpApiEndpoint.get("directorySync", "/directory-sync")
      .addSuccess(DirectorySync)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Read the identity-directory (SCIM) connection")
      .annotate(OpenApi.Description, "eligible is reported, not enforced. Needs organization.update.")
  )
  .add(
    HttpApiEndpoint.get("directoryEvents", "/directory-sync/events")
      .setUrlParams(Schema.Struct({ outcome: Schema.optional(DirectoryOutcome), ...PageParams }))
      .addSuccess(Page(DirectoryEvent))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List directory-sync events")
      .annotate(OpenApi.Description, "Directory events, newest first. An unreadable cursor is 400. Needs organization.update.")
  )
  .middleware(Authentication) {}
