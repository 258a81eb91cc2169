import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { Invitation, Member, MemberListParams, MemberPath, ReportingLine, ReportingLineParams } from "@tks/domain/member"
import { PageParams } from "@tks/domain/page-params"
import { CountedPage, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { MemberProgress, MemberProgressParams } from "@tks/domain/training"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** Members, their training progress, invitations and reporting lines (rule: user.read). */
export class MembersGroup extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/members")
      .setUrlParams(MemberListParams)
      .addSuccess(CountedPage(Member))
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "List members")
      .annotate(
        OpenApi.Description,
        "Members ordered by name, with total. Anyone but an organization admin gets only their own row, without the admin-only fields; only organization admins may filter by noManager (others 403)."
      )
      .pipe(requires(policies.members.list))
  )
  .add(
    HttpApiEndpoint.get("progress", "/members/progress")
      .setUrlParams(MemberProgressParams)
      .addSuccess(CountedPage(MemberProgress))
      .annotate(OpenApi.Summary, "List member progress")
      .annotate(
        OpenApi.Description,
        "One row per person who has finished setting up, people who left included (people never signed in are not listed), ordered by login name (the email, lower-cased), with total. An organization admin sees every row, and lastReviewDate is the newest review about the member; anyone else sees only their own row, and lastReviewDate is then the newest review about them that they wrote themself. `query` matches anywhere in name or email; a `teamId` outside the organization is 400 Unknown teamId."
      )
      .pipe(requires(policies.training.memberProgress))
  )
  .add(
    HttpApiEndpoint.get("get", "/members/:id")
      .setPath(MemberPath)
      .addSuccess(Member)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a member")
      .annotate(
        OpenApi.Description,
        "One member at any status. Organization admins may open anyone with a record in the organization; anyone else only themself (others 404)."
      )
      .pipe(requires(policies.members.get))
  )
  .add(
    HttpApiEndpoint.get("invitations", "/invitations")
      .setUrlParams(PageParams)
      .addSuccess(Page(Invitation))
      .annotate(OpenApi.Summary, "List pending invitations")
      .annotate(OpenApi.Description, "Pending invitations, newest first, expired ones included and marked.")
      .pipe(requires(policies.members.invitations))
  )
  .add(
    HttpApiEndpoint.get("reportingLines", "/reporting-lines")
      .setUrlParams(ReportingLineParams)
      .addSuccess(CountedPage(ReportingLine))
      .annotate(OpenApi.Summary, "List reporting lines")
      .annotate(OpenApi.Description, "Each person's manager, ordered by name, with total.")
      .pipe(requires(policies.members.reportingLines))
  )
  .middleware(Authentication) {}
