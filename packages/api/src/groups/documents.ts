import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Forbidden } from "@tks/domain/errors"
import { DocumentFromUrl, DocumentSubmission, NewDocument } from "@tks/domain/intake"
import { policies } from "@tks/domain/policies"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const outcome =
  "An organization admin publishes with any visibility, and a team admin to teams they all administer; anything else goes to review, where the asked visibility is not kept and the document is not readable through /v1/content until an administrator approves it. A document never gets 403 for its visibility."

const limit =
  "Submissions that go to review are limited to 3 a minute and 20 an hour per person, across both document endpoints and all the person's tokens: over it, 429 with code REVIEW_SUBMISSION_LIMIT_REACHED and Retry-After, and nothing is created."

const answer =
  "Answers 201 Created with {mode, draft, contentId, reviewRequestId, title, url}. Published: poll GET /v1/content/{id} until processingStatus and indexingStatus are COMPLETED. Review: follow GET /v1/content-review-requests/{reviewRequestId}."

// 201 Created. Re-annotating a schema drops its identifier, so it is given again to keep the named component.
const Created = DocumentSubmission.annotations(HttpApiSchema.annotations({ status: 201, identifier: "DocumentSubmission" }))

/** Adding documents (content:write and content-review.create, checked on every call). */
export class DocumentsGroup extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.post("create", "/documents")
      .setPayload(NewDocument)
      .addSuccess(Created)
      .addError(Forbidden)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Add a document written in markdown")
      .annotate(
        OpenApi.Description,
        `${answer}\n\n${outcome} asDraft leaves a published document unpublished (draft true, not processed); it is ignored when the document goes to review.\n\nteamIds is required with visibility teams (1 to 50 distinct teams) and refused otherwise; a team not of the organization is 400 "Unknown teamId".\n\n${limit}`
      )
      .pipe(requires(policies.intake.document))
  )
  .add(
    HttpApiEndpoint.post("fromUrl", "/documents/from-url")
      .setPayload(DocumentFromUrl)
      .addSuccess(Created)
      .addError(Forbidden)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Add a document fetched from a public address")
      .annotate(
        OpenApi.Description,
        `Fetches a public page or file (HTML becomes markdown, a PDF text per page). Its title is the site's name until processing reads a better one. An address that points at a private network or the cloud metadata service, redirects to one, or cannot be reached is 400 "This address cannot be fetched".\n\n${answer}\n\n${outcome}\n\n${limit} The limit is checked before the address is fetched.`
      )
      .pipe(requires(policies.intake.documentFromUrl))
  )
  .middleware(Authentication) {}
