import { Schema } from "effect"
import { Count, Timestamp } from "./common.js"
import { ContentId } from "./ids.js"
import { PageParams } from "./page-params.js"

/** The three kinds of content. */
export const contentTypes = ["document", "video", "guide"] as const
export const ContentType = Schema.Literal(...contentTypes)
export type ContentType = typeof ContentType.Type

/** Where processing and indexing of a content record stand; callers poll them. */
export const WorkStatus = Schema.Literal("PENDING", "PROCESSING", "COMPLETED", "FAILED")
export type WorkStatus = typeof WorkStatus.Type

/**
 * The words of a title query: split on whitespace, blanks
 * dropped, lower-cased; each must appear in the title, in any order. An
 * empty list (no query, or only spaces) filters nothing.
 */
export const titleQueryWords = (query: string | undefined): ReadonlyArray<string> =>
  query === undefined ? [] : [...new Set(query.toLowerCase().split(/\s+/).filter((word) => word !== ""))]

/** A duration is a video's only; other types carry null whatever is stored. */
export const durationOf = (type: ContentType, seconds: number | null): number | null => (type === "video" ? seconds : null)

/** A content item, as listed. Editorial notes are never part of it. */
export const Content = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  type: ContentType,
  summary: Schema.NullOr(Schema.String),
  durationSeconds: Schema.NullOr(Schema.Number).annotations({ description: "Length in seconds; videos only, null otherwise" }),
  url: Schema.String.annotations({ description: "Web link to the record" }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "Content" })
export type Content = typeof Content.Type

/** The single-content read, polled through its two statuses. A reason is given only when a status is FAILED. */
export const ContentDetail = Schema.Struct({
  ...Content.fields,
  processingStatus: WorkStatus,
  processingError: Schema.NullOr(Schema.String).annotations({ description: "Why processing failed; null unless FAILED" }),
  indexingStatus: WorkStatus,
  indexingError: Schema.NullOr(Schema.String).annotations({ description: "Why indexing failed; null unless FAILED" })
}).annotations({ identifier: "ContentDetail" })
export type ContentDetail = typeof ContentDetail.Type

/** A chapter in the text read. */
export const Chapter = Schema.Struct({
  id: Schema.String,
  sequence: Count.annotations({ description: "Order within the content, from 1" }),
  headline: Schema.NullOr(Schema.String),
  text: Schema.String
}).annotations({ identifier: "Chapter" })
export type Chapter = typeof Chapter.Type

/** GET /v1/content/{id}/text. */
export const ContentText = Schema.Struct({
  contentId: Schema.String,
  title: Schema.String,
  type: ContentType,
  url: Schema.String,
  chapters: Schema.Array(Chapter)
}).annotations({ identifier: "ContentText" })
export type ContentText = typeof ContentText.Type

/** A topic made from a content record; `itemCount` counts its items with evidence from that record only. */
export const ContentTopic = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  itemCount: Count,
  url: Schema.String
}).annotations({ identifier: "ContentTopic" })
export type ContentTopic = typeof ContentTopic.Type

/** GET /v1/content/{id}/knowledge. */
export const ContentKnowledge = Schema.Struct({
  contentId: Schema.String,
  title: Schema.String,
  topics: Schema.Array(ContentTopic)
}).annotations({ identifier: "ContentKnowledge" })
export type ContentKnowledge = typeof ContentKnowledge.Type

/** At most this many preview entries per usage list. */
export const usagePreviewLimit = 20

export const UsageEntry = Schema.Struct({ id: Schema.String, title: Schema.String, url: Schema.String })
export type UsageEntry = typeof UsageEntry.Type

/** A usage block: the true count and up to 20 entries. */
export const UsageList = Schema.Struct({
  count: Count.annotations({ description: "How many there are in all (not capped by the preview)" }),
  preview: Schema.Array(UsageEntry).annotations({ description: `At most ${usagePreviewLimit} entries, by title` })
}).annotations({ identifier: "UsageList" })
export type UsageList = typeof UsageList.Type

/**
 * GET /v1/content/{id}/usage: `lessons` built from this content that the
 * caller can read; `soleEvidenceTopics`, live topics the caller can read
 * whose every piece of evidence comes from this content.
 */
export const ContentUsage = Schema.Struct({
  contentId: Schema.String,
  lessons: UsageList,
  soleEvidenceTopics: UsageList
}).annotations({ identifier: "ContentUsage" })
export type ContentUsage = typeof ContentUsage.Type

/** GET /v1/content parameters. */
export const ContentListParams = Schema.Struct({
  query: Schema.optional(
    Schema.String.annotations({ description: "Words that must all appear in the title, in any order, case-insensitive" })
  ),
  type: Schema.optional(ContentType.annotations({ description: "Only content of this type: document, video or guide" })),
  ...PageParams.fields
})
export type ContentListParams = typeof ContentListParams.Type

/** A content record's id in the path. A plain string on the wire, never pattern checked: an id that is not ours is simply absent (404). */
export const ContentPath = Schema.Struct({ id: ContentId })
