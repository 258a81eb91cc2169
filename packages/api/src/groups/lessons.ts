import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { Lesson, LessonDetail, LessonListParams, LessonPath } from "@tks/domain/lesson"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { RetrainingPolicy } from "@tks/domain/retraining-policy"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const absent = "A lesson the caller cannot read, or of another organization, answers 404, as if absent."

/** Lessons: what they are built from, and how often they are retaken. */
export class LessonsGroup extends HttpApiGroup.make("lessons")
  .add(
    HttpApiEndpoint.get("list", "/lessons")
      .setUrlParams(LessonListParams)
      .addSuccess(Page(Lesson))
      .annotate(OpenApi.Summary, "List lessons")
      .annotate(
        OpenApi.Description,
        "Lessons the caller can read, most recent first. `query` keeps titles that contain every one of its words, in any order, ignoring case."
      )
      .pipe(requires(policies.lessons.list))
  )
  .add(
    HttpApiEndpoint.get("get", "/lessons/:id")
      .setPath(LessonPath)
      .addSuccess(LessonDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a lesson")
      .annotate(
        OpenApi.Description,
        `The lesson's metadata and its source content pieces in order, limited to published content the caller can read (a piece resolves via /v1/content/{id}). ${absent}`
      )
      .pipe(requires(policies.lessons.get))
  )
  .add(
    HttpApiEndpoint.get("retrainingPolicy", "/lessons/:id/retraining-policy")
      .setPath(LessonPath)
      .addSuccess(RetrainingPolicy)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a lesson's retraining policy")
      .annotate(
        OpenApi.Description,
        `recurring: retrained every intervalDays from each person's completion (changed_material: only when the lesson's source content changed since). A lesson without a policy answers retrainingType none with null fields. ${absent}`
      )
      .pipe(requires(policies.lessons.retrainingPolicy))
  )
  .middleware(Authentication) {}
