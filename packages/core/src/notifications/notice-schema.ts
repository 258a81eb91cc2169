import { Schema } from "effect"
import type { Notice } from "@tks/domain/notice"

/**
 * The stored form of a `Notice` (notifications.notice, jsonb), read back at
 * delivery. Typed against the domain's union, so the two cannot drift: a
 * new kind of notice fails to compile here until it can be read.
 */
const lessonFacts = { lessonId: Schema.String, title: Schema.String }

const StoredNotice: Schema.Schema<Notice> = Schema.Union(
  Schema.TaggedStruct("LessonAssigned", { ...lessonFacts, dueDate: Schema.NullOr(Schema.String) }),
  Schema.TaggedStruct("RetrainingAssigned", { ...lessonFacts, dueDate: Schema.NullOr(Schema.String), reason: Schema.NullOr(Schema.String) }),
  Schema.TaggedStruct("ObligationWaived", { ...lessonFacts, reason: Schema.String }),
  Schema.TaggedStruct("ObligationCancelled", { ...lessonFacts, reason: Schema.String }),
  Schema.TaggedStruct("DueDateChanged", { ...lessonFacts, dueDate: Schema.NullOr(Schema.String) }),
  Schema.TaggedStruct("PopQuizReady", { popQuizId: Schema.String, title: Schema.String, dueDate: Schema.String }),
  Schema.TaggedStruct("WebhookEndpointDisabled", { endpointId: Schema.String, url: Schema.String, reason: Schema.String })
)

export const decodeStoredNotice = Schema.decodeUnknownEither(StoredNotice)
