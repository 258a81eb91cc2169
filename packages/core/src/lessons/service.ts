import { Effect } from "effect"
import { titleQueryWords } from "@tks/domain/content"
import { NotFound } from "@tks/domain/errors"
import type { LessonId } from "@tks/domain/ids"
import type { Lesson, LessonDetail, LessonListParams } from "@tks/domain/lesson"
import type { Access } from "@tks/domain/policy"
import { retrainingPolicyOf } from "@tks/domain/retraining-policy"
import { readerOf } from "../knowledge/access.js"
import { newestFirst } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { iso } from "../common/time.js"
import { type LessonPageRow, type LessonRow, LessonsRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/**
 * Lesson reads: every member may call; what they see are the lessons their
 * visibility reaches, and any other lesson answers 404
 * as if absent. A lesson's pieces are limited to the content the caller can read.
 */
export class Lessons extends Effect.Service<Lessons>()("@tks/core/Lessons", {
  effect: Effect.gen(function*() {
    const repo = yield* LessonsRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const notFound = () => new NotFound({ message: "No such lesson" })

    const lessonView = (row: LessonRow): Lesson => ({
      id: row.id,
      title: row.title,
      status: row.status,
      visibility: row.visibility,
      personal: row.personal,
      url: links.lesson(row.id),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at)
    })

    /** GET /v1/lessons: newest first; every word of `query` in the title. */
    const list = traced("Lessons.list")(function*(access: Access, params: LessonListParams) {
      const { organizationId: orgId, userId } = access.actor
      const reader = readerOf(access.actor)
      const words = titleQueryWords(params.query)
      return yield* pagination.page({
        // What is listed depends on what the caller can read, so the cursor is bound to the caller too.
        listing: ["lessons", orgId, userId, words],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.page({ orgId, reader, words, after, limit }),
        view: (row: LessonPageRow) => lessonView(row)
      })
    })

    /** GET /v1/lessons/{id}: the metadata and the pieces the caller can read, in order. */
    const get = traced("Lessons.get")(function*(access: Access, lessonId: LessonId) {
      const row = yield* repo.find(access.actor.organizationId, lessonId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const detail: LessonDetail = {
        ...lessonView(row),
        content: row.content.map((piece) => ({ ...piece, url: links.content(piece.id) }))
      }
      return detail
    })

    /** GET /v1/lessons/{id}/retraining-policy: without a policy, retrainingType none and nulls. */
    const retrainingPolicy = traced("Lessons.retrainingPolicy")(function*(access: Access, lessonId: LessonId) {
      const row = yield* repo.retrainingPolicy(access.actor.organizationId, lessonId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      return retrainingPolicyOf(
        row.id,
        row.interval_days === null || row.completion_mode === null || row.updated_at === null
          ? null
          : { intervalDays: row.interval_days, completionMode: row.completion_mode, updatedAt: iso(row.updated_at) }
      )
    })

    return { list, get, retrainingPolicy } as const
  }),
  dependencies: [LessonsRepo.Default, Pagination.Default, Links.Default]
}) {}
