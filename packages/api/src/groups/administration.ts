import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { DirectoryEvent, DirectoryEventParams, DirectorySync, Finding, OrgChartVerification } from "@tks/domain/administration"
import { PageParams } from "@tks/domain/page-params"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** Administration reads. */
export class AdministrationGroup extends HttpApiGroup.make("administration")
  .add(
    HttpApiEndpoint.get("findings", "/findings")
      .setUrlParams(PageParams)
      .addSuccess(Page(Finding))
      .annotate(OpenApi.Summary, "List findings")
      .annotate(OpenApi.Description, "Findings newest first.")
      .pipe(requires(policies.administration.findings))
  )
  .add(
    HttpApiEndpoint.get("orgChartVerification", "/org-chart/verification")
      .addSuccess(OrgChartVerification)
      .annotate(OpenApi.Summary, "Read the org-chart verification status")
      .annotate(OpenApi.Description, "When the org chart was last confirmed and when it is due again.")
      .pipe(requires(policies.administration.orgChartVerification))
  )
  .add(
    HttpApiEndpoint.get("directorySync", "/directory-sync")
      .addSuccess(DirectorySync)
      .annotate(OpenApi.Summary, "Read the identity-directory (SCIM) connection")
      .annotate(OpenApi.Description, "eligible is reported, not enforced.")
      .pipe(requires(policies.administration.directorySync))
  )
  .add(
    HttpApiEndpoint.get("directoryEvents", "/directory-sync/events")
      .setUrlParams(DirectoryEventParams)
      .addSuccess(Page(DirectoryEvent))
      .annotate(OpenApi.Summary, "List directory-sync events")
      .annotate(OpenApi.Description, "Directory events, newest first. An unreadable cursor is 400.")
      .pipe(requires(policies.administration.directoryEvents))
  )
  .middleware(Authentication) {}
