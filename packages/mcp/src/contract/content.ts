import { RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import {
  Content,
  ContentDetail,
  ContentKnowledge,
  ContentListParams,
  ContentText,
  ContentUsage
} from "@tks/domain/content"
import { ContentReviewListParams, ContentReviewRequest } from "@tks/domain/content-review"
import { ContentId, ReviewRequestId } from "@tks/domain/ids"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { IdInput, inputOf, tool, ToolAuthorization } from "./tool.js"

const contentId = Schema.Struct({ contentId: IdInput(ContentId, "The content's id, e.g. from list_content or search_service") })

/** The source content (documents, videos, guides) and the review queue of contributions. */
export class ContentTools extends RpcGroup.make(
  tool("list_content", {
    title: "List content",
    description:
      "Documents, videos and guides the caller can see, most recent first. `query`: every word must appear in the title (any order, case-insensitive); `type`: document, video or guide. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). To find content by what it says, use search_service instead; for one piece's full text, get_content_text.",
    payload: inputOf(ContentListParams),
    success: Page(Content),
    policy: policies.content.list
  }),
  tool("get_content", {
    title: "Read a content record",
    description:
      "One document, video or guide: title, type, summary, duration (videos), web link, and its processing and indexing status (both COMPLETED once a new document is ready). For its text use get_content_text; for the knowledge taken from it, get_content_knowledge.",
    payload: contentId,
    success: ContentDetail,
    policy: policies.content.get
  }),
  tool("get_content_text", {
    title: "Read a content's text",
    description: "The full text of a document, video transcript or guide, as chapters ordered by sequence, each with its headline. Long: to find one passage, search_service is cheaper; for one fact with its quote, get_item.",
    payload: contentId,
    success: ContentText,
    policy: policies.content.text
  }),
  tool("get_content_knowledge", {
    title: "Read what a content taught the graph",
    description:
      "The topics this content is evidence for, latest records only (archived and superseded left out), each with how many of its items came from this content. Use it to see what a piece of content taught; for a topic's own items, get_topic.",
    payload: contentId,
    success: ContentKnowledge,
    policy: policies.content.knowledge
  }),
  tool("get_content_usage", {
    title: "Read where a content is used",
    description:
      "The lessons built on this content (filtered to the lessons the caller may see) and the topics for which it is the only evidence. Each list has its true count and at most 20 preview entries. Use it before changing or retiring content, to see what rests on it; then get_lesson or get_topic for one of them.",
    payload: contentId,
    success: ContentUsage,
    policy: policies.content.usage
  }),
  tool("list_content_review_requests", {
    title: "List content-review requests",
    description:
      "Contributions waiting for or past review. A reviewer (organization admin) sees the whole queue; anyone else only their own submissions. Filters: status, resourceType, kind, submitterId (reviewers only), mine. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). For one request's detail use get_content_review_request.",
    payload: inputOf(ContentReviewListParams),
    success: Page(ContentReviewRequest),
    policy: policies.contentReview.list
  }),
  tool("get_content_review_request", {
    title: "Read a content-review request",
    description: "One content-review request. A reviewer reads any request; anyone else only their own submissions. Find ids with list_content_review_requests.",
    payload: Schema.Struct({ requestId: IdInput(ReviewRequestId, "The request's id, e.g. from list_content_review_requests") }),
    success: ContentReviewRequest,
    policy: policies.contentReview.get
  })
).middleware(ToolAuthorization) {}
