import { RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import { LessonId } from "@tks/domain/ids"
import { Lesson, LessonDetail, LessonListParams } from "@tks/domain/lesson"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { IdInput, inputOf, tool, ToolAuthorization } from "./tool.js"

/** Lessons, the training built on the content. */
export class TrainingTools extends RpcGroup.make(
  tool("list_lessons", {
    title: "List lessons",
    description:
      "Lessons the caller may see, most recent first. `query`: every word must appear in the title. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). For one lesson's content pieces use get_lesson.",
    payload: inputOf(LessonListParams),
    success: Page(Lesson),
    policy: policies.lessons.list
  }),
  tool("get_lesson", {
    title: "Read a lesson",
    description: "One lesson's metadata and its ordered source content pieces. To read a piece, get_content_text with its content id.",
    payload: Schema.Struct({ lessonId: IdInput(LessonId, "The lesson's id, e.g. from list_lessons") }),
    success: LessonDetail,
    policy: policies.lessons.get
  })
).middleware(ToolAuthorization) {}
