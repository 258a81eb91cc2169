import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  DirectoryConnection,
  DirectoryEvent,
  DirectoryEventParams,
  DirectorySync,
  DirectoryTokenIssued,
  Finding,
  IssueDirectoryToken,
  OrgChartVerification,
  PauseDirectoryConnection,
  VerifiedDomain
} from "@tks/domain/administration"
import { BadRequest, NotFound } from "@tks/domain/errors"
import { PageParams } from "@tks/domain/page-params"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"
import { AnswerNotKept } from "../idempotent-writes.js"

// Re-annotating a schema drops its identifier, so it is given again to keep the named component.
const TokenIssued = DirectoryTokenIssued.annotations(HttpApiSchema.annotations({ status: 201, identifier: "DirectoryTokenIssued" }))

const noConnection =
  "An organization without a directory connection is 404 NOT_FOUND (issue a token first); a DISCONNECTED one 400 DIRECTORY_CONNECTION_DISCONNECTED (issue a token to connect it again)."

/** Administration reads, and the acts on the identity-directory (SCIM) connection (docs/directory-sync.md). */
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
  .add(
    HttpApiEndpoint.post("directoryToken", "/directory-sync/token")
      .setPayload(IssueDirectoryToken)
      .addSuccess(TokenIssued)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Issue the identity directory's (SCIM) token")
      .annotate(
        OpenApi.Description,
        "Connects the organization's identity directory, or gives it a new token. Without a connection, or with a DISCONNECTED one, the connection is made (again) PENDING with a new token; it turns ACTIVE at the directory's first request. Otherwise the token is rotated: the one it replaces stops working at once (the directory's requests with it are refused, 401, and listed as AUTH REJECTED TOKEN_REVOKED in the directory events), and the status, the counters and a pause are kept. Answers 201 with the connection and the `token`, for the directory's SCIM settings with the base URL `{PUBLIC_URL}/scim/v2`: it is shown only here (only its SHA-256 is kept), so this answer is never kept for an `Idempotency-Key`, which has no effect here; sending the request again issues another token and the earlier one stops working. `expiresInDays` out of range is 400 VALIDATION_ERROR."
      )
      .annotate(AnswerNotKept, true)
      .pipe(requires(policies.administration.directoryToken))
  )
  .add(
    HttpApiEndpoint.post("directoryPause", "/directory-sync/pause")
      .setPayload(PauseDirectoryConnection)
      .addSuccess(DirectoryConnection)
      .addError(NotFound)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Pause the directory sync")
      .annotate(
        OpenApi.Description,
        `Sets the connection PAUSED with \`pausedAt\` and the optional \`reason\` (\`pausedReason\`): until it is resumed, every request of the directory is refused with 403 and that reason, and listed as AUTH REJECTED CONNECTION_PAUSED in the directory events. Answers 200 with the connection. A paused connection is answered as it is, unchanged. ${noConnection}`
      )
      .pipe(requires(policies.administration.directoryPause))
  )
  .add(
    HttpApiEndpoint.post("directoryResume", "/directory-sync/resume")
      .addSuccess(DirectoryConnection)
      .addError(NotFound)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Resume the directory sync")
      .annotate(
        OpenApi.Description,
        `Lets the directory's requests in again: the connection is ACTIVE, or PENDING when it was never used, and \`pausedAt\` and \`pausedReason\` are cleared. Answers 200 with the connection. A connection that is not paused is answered as it is, unchanged. ${noConnection}`
      )
      .pipe(requires(policies.administration.directoryResume))
  )
  .middleware(Authentication) {}
