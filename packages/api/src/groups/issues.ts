import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { IssueDetail, IssueListParams, IssuePath, IssueSummary } from "@tks/domain/issue"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const whoReads =
  "Organization admins read every issue and every target. Anyone else reads an issue only when they can read every one of its targets (so any issue without targets), since its title and description may name them: a single target out of their visibility, archived or superseded hides the issue, assigned to them or not. Affected content they cannot read is left out."

/** Data-quality issues (also the list_issues and get_issue tools): issues found in the knowledge graph and the library. */
export class IssuesGroup extends HttpApiGroup.make("issues")
  .add(
    HttpApiEndpoint.get("list", "/issues")
      .setUrlParams(IssueListParams)
      .addSuccess(Page(IssueSummary))
      .annotate(OpenApi.Summary, "List data-quality issues")
      .annotate(
        OpenApi.Description,
        `Most recent first. Filters: status, type, severity (one value each) and assignedToMe (assigned to the caller directly or through a company role they hold now). \`targetCount\` counts the targets the caller can read. ${whoReads}`
      )
      .pipe(requires(policies.issues.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/issues/:id")
      .setPath(IssuePath)
      .addSuccess(IssueDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a data-quality issue")
      .annotate(
        OpenApi.Description,
        `The issue with its description, its targets in order (each with the affected content the caller can read) and, once RESOLVED or DISMISSED, its resolution. ${whoReads} An issue the caller cannot read, of another organization or unknown is 404 "No such issue".`
      )
      .pipe(requires(policies.issues.get))
  )
  .middleware(Authentication) {}
