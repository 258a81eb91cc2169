import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { ContentType } from "./content.js"
import { LessonId } from "./ids.js"
import { PageParams } from "./page-params.js"
import { Visibility } from "./roles.js"

/** A lesson is open or closed (a closed lesson cannot be assigned). */
export const LessonStatus = Schema.Literal("open", "closed")
export type LessonStatus = typeof LessonStatus.Type

/** GET /v1/lessons: a lesson's metadata, as listed. */
export const Lesson = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  status: LessonStatus,
  visibility: Visibility.annotations({
    description: "everyone (every member except external accounts), teams (the members of its teams) or admins"
  }),
  personal: Schema.Boolean.annotations({
    description: "true for a lesson generated for a single person: it cannot be assigned, retrained or given a retraining policy"
  }),
  url: Schema.String.annotations({ description: "Web link to the lesson" }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "Lesson" })
export type Lesson = typeof Lesson.Type

/** One source content piece of a lesson, in the lesson's order. */
export const LessonContentPiece = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  type: ContentType,
  url: Schema.String.annotations({ description: "Web link to the content (GET /v1/content/{id})" })
}).annotations({ identifier: "LessonContentPiece" })
export type LessonContentPiece = typeof LessonContentPiece.Type

/** GET /v1/lessons/{id}: the metadata and the ordered source content pieces the caller can read. */
export const LessonDetail = Schema.Struct({
  ...Lesson.fields,
  content: Schema.Array(LessonContentPiece).annotations({
    description: "The lesson's source content pieces in order, limited to published content the caller can read"
  })
}).annotations({ identifier: "LessonDetail" })
export type LessonDetail = typeof LessonDetail.Type

/** GET /v1/lessons parameters. */
export const LessonListParams = Schema.Struct({
  query: Schema.optional(
    Schema.String.annotations({ description: "Words that must all appear in the title, in any order, case-insensitive" })
  ),
  ...PageParams.fields
})
export type LessonListParams = typeof LessonListParams.Type

/** A lesson's id in the path. A plain string on the wire, never pattern checked: an id that is not ours is simply absent (404). */
export const LessonPath = Schema.Struct({ id: LessonId })
