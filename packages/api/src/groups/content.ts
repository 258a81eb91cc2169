import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  Content,
  ContentDetail,
  ContentKnowledge,
  ContentListParams,
  ContentPath,
  ContentText,
  ContentUsage
} from "@tks/domain/content"
import { NotFound } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const absent =
  "Content that is not published (a draft, in review, rejected or withdrawn), that the caller cannot read, or of another organization answers 404, as if absent."

/** The library of documents, videos and guides, and what was made from them. */
export class ContentGroup extends HttpApiGroup.make("content")
  .add(
    HttpApiEndpoint.get("list", "/content")
      .setUrlParams(ContentListParams)
      .addSuccess(Page(Content))
      .annotate(OpenApi.Summary, "List content")
      .annotate(
        OpenApi.Description,
        "Published content the caller can read, most recent first. `query` keeps titles that contain every one of its words, in any order, ignoring case; `type` keeps one kind. Editorial notes are never returned."
      )
      .pipe(requires(policies.content.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/content/:id")
      .setPath(ContentPath)
      .addSuccess(ContentDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read content")
      .annotate(
        OpenApi.Description,
        `The record with processingStatus and indexingStatus (PENDING, PROCESSING, COMPLETED or FAILED, with the reason when FAILED). Poll it after adding a document: both reach COMPLETED when it is ready. ${absent}`
      )
      .pipe(requires(policies.content.get))
  )
  .add(
    HttpApiEndpoint.get("text", "/content/:id/text")
      .setPath(ContentPath)
      .addSuccess(ContentText)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read content's text")
      .annotate(OpenApi.Description, `The record's chapters ordered by sequence. ${absent}`)
      .pipe(requires(policies.content.text))
  )
  .add(
    HttpApiEndpoint.get("knowledge", "/content/:id/knowledge")
      .setPath(ContentPath)
      .addSuccess(ContentKnowledge)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read the knowledge made from content")
      .annotate(
        OpenApi.Description,
        `Topics with at least one item whose evidence comes from this record, by name; itemCount counts those items only. Current records only (archived and superseded topics and items are left out), and only topics the caller can read. A topic resolves via /v1/topics/{id}. ${absent}`
      )
      .pipe(requires(policies.content.knowledge))
  )
  .add(
    HttpApiEndpoint.get("usage", "/content/:id/usage")
      .setPath(ContentPath)
      .addSuccess(ContentUsage)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read where content is used")
      .annotate(
        OpenApi.Description,
        `lessons: lessons built from this record that the caller can read. soleEvidenceTopics: current topics the caller can read whose every piece of evidence comes from this record. Each has the true count and at most 20 preview entries by title. ${absent}`
      )
      .pipe(requires(policies.content.usage))
  )
  .middleware(Authentication) {}
