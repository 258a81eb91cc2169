import { Schema } from "effect"
import { Visibility } from "@tks/domain/roles"
import { Key, Text, withDefault } from "./schema-common.js"
import { Timestamp } from "./timestamp.js"

/** The library sections of the organization fixture: content, evidence and review requests. */

/**
 * Where an item came from: a content record (by key) and the place in it, a
 * character range of its body (`chars`, end exclusive) or a time range of a
 * video in seconds (`seconds`).
 */
export const FixtureEvidence = Schema.Struct({
  content: Key,
  quote: withDefault(Schema.NullOr(Schema.String), () => null),
  chars: Schema.optional(Schema.Tuple(Schema.NonNegativeInt, Schema.NonNegativeInt)),
  seconds: Schema.optional(Schema.Tuple(Schema.NonNegative, Schema.NonNegative)),
  confidence: withDefault(Schema.Number.pipe(Schema.between(0, 1)), () => 1),
  /** The chapter (its sequence in the content) the evidence sits in. */
  chapter: Schema.optional(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)))
})
export type FixtureEvidence = typeof FixtureEvidence.Type

/** The statuses of content as stored (`ContentStatus` of @tks/domain/content-review). */
const ContentStatus = Schema.Literal("published", "draft", "in_review", "rejected", "withdrawn")

const FixtureChapter = Schema.Struct({
  headline: withDefault(Schema.NullOr(Schema.String), () => null),
  text: Schema.String.pipe(Schema.minLength(1))
})

export const FixtureContent = Schema.Struct({
  key: Key,
  type: withDefault(Schema.Literal("document", "video", "guide"), () => "document" as const),
  title: Text,
  summary: withDefault(Schema.NullOr(Schema.String), () => null),
  /** Editorial notes: stored, never returned by the API. */
  notes: withDefault(Schema.NullOr(Schema.String), () => null),
  visibility: withDefault(Visibility, () => "everyone" as const),
  teams: withDefault(Schema.Array(Key), () => []),
  status: withDefault(ContentStatus, () => "published" as const),
  /**
   * Markdown. With \`chapters\` it is kept as the source; without them a
   * published record is processed after the import (chapters, knowledge,
   * index), as a newly added document is.
   */
  body: Schema.optional(Schema.String.pipe(Schema.minLength(1))),
  /** Chapters as they are: the record is imported already processed. */
  chapters: Schema.optional(Schema.Array(FixtureChapter)),
  sourceUrl: Schema.optional(Schema.String),
  /** A hosted video: its id on the video-hosting site. */
  videoId: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{11}$/))),
  durationSeconds: Schema.optional(Schema.NonNegativeInt),
  createdBy: Schema.optional(Key),
  createdAt: Schema.optional(Timestamp),
  updatedAt: Schema.optional(Timestamp)
})

export const FixtureReviewRequest = Schema.Struct({
  key: Key,
  /** The content under review (key); absent for issue-only requests. */
  content: Schema.optional(Key),
  submitter: Key,
  status: withDefault(
    Schema.Literal("PENDING", "APPROVED", "REJECTED", "CHANGES_REQUESTED", "CANCELED", "SUPERSEDED"),
    () => "PENDING" as const
  ),
  resourceType: withDefault(Schema.Literal("document", "video", "audio", "guide"), () => "document" as const),
  kind: withDefault(Schema.Literal("content", "content-resolves-issue", "issue-only"), () => "content" as const),
  /** Defaults to the content's title. */
  title: Schema.optional(Text),
  decidedBy: Schema.optional(Key),
  decisionNote: Schema.optional(Schema.String),
  createdAt: Schema.optional(Timestamp)
})
