import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { Invitation, Member, MemberStatusFilter, ReportingLine } from "@tks/domain/member"
import { BooleanFromQuery, CountedPage, Page } from "@tks/domain/pagination"
import { IdPath, PageParams } from "../params.js"
import { Authentication } from "../authentication.js"

const statusParam = Schema.optional(
  MemberStatusFilter.annotations({ description: "active (default), deactivated or all" })
)

/** SPEC 4.3: members, invitations and reporting lines (rule: user.read). */
export class MembersGroup extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/members")
      .setUrlParams(
        Schema.Struct({
          query: Schema.optional(Schema.String.annotations({ description: "Matches anywhere in name or email, case-insensitive" })),
          status: statusParam,
          teamId: Schema.optional(Schema.String.annotations({ description: "Only members of this team; a team outside the organization is 400" })),
          noManager: Schema.optional(BooleanFromQuery.annotations({ description: "true lists only people with no manager; organization admins only" })),
          ...PageParams
        })
      )
      .addSuccess(CountedPage(Member))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List members")
      .annotate(
        OpenApi.Description,
        "Members ordered by name, with total. Organization admins read everyone; anyone else gets only their own row, without the admin-only fields. External accounts get 403."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/members/:id")
      .setPath(IdPath)
      .addSuccess(Member)
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a member")
      .annotate(
        OpenApi.Description,
        "One member at any status. Organization admins may open anyone with a record in the organization; anyone else only themself (others 404)."
      )
  )
  .add(
    HttpApiEndpoint.get("invitations", "/invitations")
      .setUrlParams(Schema.Struct(PageParams))
      .addSuccess(Page(Invitation))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List pending invitations")
      .annotate(OpenApi.Description, "Pending invitations, newest first, expired ones included and marked. Organization admins only.")
  )
  .add(
    HttpApiEndpoint.get("reportingLines", "/reporting-lines")
      .setUrlParams(
        Schema.Struct({
          status: statusParam,
          noManager: Schema.optional(BooleanFromQuery.annotations({ description: "true lists only people with no manager" })),
          ...PageParams
        })
      )
      .addSuccess(CountedPage(ReportingLine))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List reporting lines")
      .annotate(OpenApi.Description, "Each person's manager, ordered by name, with total. Organization admins only.")
  )
  .middleware(Authentication) {}
