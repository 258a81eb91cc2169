import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  DirectoryEvent,
  DirectoryEventParams,
  DirectorySync,
  Finding,
  OrgChartVerification,
  VerifiedDomain
} from "@tks/domain/administration"
import { PageParams } from "@tks/domain/page-params"
import { List, Page } from "@tks/domain/pagination"
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
  .add(
    HttpApiEndpoint.get("directoryDomains", "/directory-sync/domains")
      .addSuccess(List(VerifiedDomain))
      .annotate(OpenApi.Summary, "List the verified email domains")
      .annotate(
        OpenApi.Description,
        "The organization's verified email domains, by name. The identity directory may provision only people whose email is at one of them, exactly: a subdomain counts only when listed itself; anyone else is skipped with reason `DOMAIN_MISMATCH`. The operator adds and removes them with the CLI (`org domains add`, `org domains remove`). One page; nextCursor is always null."
      )
      .pipe(requires(policies.administration.directoryDomains))
  )
  .middleware(Authentication) {}
