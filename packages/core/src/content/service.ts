import { Effect } from "effect"
import {
  type Content,
  type ContentDetail,
  type ContentKnowledge,
  type ContentListParams,
  type ContentText,
  type ContentUsage,
  durationOf,
  titleQueryWords,
  type WorkStatus
} from "@tks/domain/content"
import { NotFound } from "@tks/domain/errors"
import type { ContentId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { newestFirst } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { iso } from "../common/time.js"
import { type ContentPageRow, type ContentRow, ContentRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/** A failure reason is shown only while its status says FAILED (a retried job may leave an old one behind). */
const reasonOf = (status: WorkStatus, reason: string | null): string | null => (status === "FAILED" ? reason : null)

/**
 * The library as a caller sees it. Every member may call; what
 * they see is published content their visibility reaches
 * (docs/domain.md, Visibility), and anything else answers 404 as if absent. Editorial notes
 * are never read.
 */
export class ContentLibrary extends Effect.Service<ContentLibrary>()("@tks/core/ContentLibrary", {
  effect: Effect.gen(function*() {
    const repo = yield* ContentRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const notFound = () => new NotFound({ message: "No such content" })

    const contentView = (row: ContentRow): Content => ({
      id: row.id,
      title: row.title,
      type: row.type,
      summary: row.summary,
      durationSeconds: durationOf(row.type, row.duration_seconds),
      url: links.content(row.id),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at)
    })

    /** GET /v1/content: newest first; every word of `query` in the title; `type` narrows. */
    const list = traced("ContentLibrary.list")(function*(access: Access, params: ContentListParams) {
      const { organizationId: orgId, userId } = access.actor
      const reader = readerOf(access.actor)
      const words = titleQueryWords(params.query)
      const type = params.type ?? null
      return yield* pagination.page({
        // What is listed depends on what the caller can read, so the cursor is bound to the caller too.
        listing: ["content", orgId, userId, type, words],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.page({ orgId, reader, type, words, after, limit }),
        view: (row: ContentPageRow) => contentView(row)
      })
    })

    /** GET /v1/content/{id}: the record and where its processing and indexing stand. */
    const get = traced("ContentLibrary.get")(function*(access: Access, contentId: ContentId) {
      const row = yield* repo.find(access.actor.organizationId, contentId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const detail: ContentDetail = {
        ...contentView(row),
        processingStatus: row.processing_status,
        processingError: reasonOf(row.processing_status, row.processing_error),
        indexingStatus: row.indexing_status,
        indexingError: reasonOf(row.indexing_status, row.indexing_error)
      }
      return detail
    })

    /** GET /v1/content/{id}/text: its chapters in sequence. */
    const text = traced("ContentLibrary.text")(function*(access: Access, contentId: ContentId) {
      const row = yield* repo.text(access.actor.organizationId, contentId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const view: ContentText = {
        contentId: row.id,
        title: row.title,
        type: row.type,
        url: links.content(row.id),
        chapters: row.chapters
      }
      return view
    })

    /** GET /v1/content/{id}/knowledge: the live topics made from it that the caller can read. */
    const knowledge = traced("ContentLibrary.knowledge")(function*(access: Access, contentId: ContentId) {
      const row = yield* repo.knowledge(access.actor.organizationId, contentId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const view: ContentKnowledge = {
        contentId: row.id,
        title: row.title,
        topics: row.topics.map((topic) => ({ ...topic, url: links.topic(topic.id) }))
      }
      return view
    })

    /** GET /v1/content/{id}/usage: lessons built from it and topics resting on it alone, as the caller can read them. */
    const usage = traced("ContentLibrary.usage")(function*(access: Access, contentId: ContentId) {
      const row = yield* repo.usage(access.actor.organizationId, contentId, readerOf(access.actor))
      if (row === undefined) return yield* notFound()
      const view: ContentUsage = {
        contentId: row.id,
        lessons: {
          count: row.lesson_count,
          preview: row.lessons.map((lesson) => ({ ...lesson, url: links.lesson(lesson.id) }))
        },
        soleEvidenceTopics: {
          count: row.topic_count,
          preview: row.topics.map((topic) => ({ ...topic, url: links.topic(topic.id) }))
        }
      }
      return view
    })

    return { list, get, text, knowledge, usage } as const
  }),
  dependencies: [ContentRepo.Default, Pagination.Default, Links.Default]
}) {}
