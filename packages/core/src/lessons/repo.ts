import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ContentType } from "@tks/domain/content"
import type { LessonId, OrganizationId } from "@tks/domain/ids"
import type { LessonStatus } from "@tks/domain/lesson"
import type { CompletionMode } from "@tks/domain/retraining-policy"
import type { Visibility } from "@tks/domain/roles"
import { contentVisible, lessonReadable, type Reader } from "../knowledge/access.js"
import { newestFirst } from "../common/keyset.js"
import { titleHasEveryWord } from "../common/text-search.js"

export interface LessonRow {
  readonly id: string
  readonly title: string
  readonly status: LessonStatus
  readonly visibility: Visibility
  readonly personal: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

export interface LessonPageRow extends LessonRow {
  readonly created_us: string
}

interface LessonDetailRow extends LessonRow {
  readonly content: ReadonlyArray<{ readonly id: string; readonly title: string; readonly type: ContentType }>
}

interface RetrainingPolicyRow {
  readonly id: string
  readonly interval_days: number | null
  readonly completion_mode: CompletionMode | null
  readonly updated_at: Date | null
}

/**
 * Lesson reads. Every statement keeps to one organization and to the lessons
 * `lessonReadable` lets the reader see, so a lesson out of reach is absent.
 */
export class LessonsRepo extends Effect.Service<LessonsRepo>()("@tks/core/LessonsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`l.id, l.title, l.status, l.visibility, (l.personal_for_user_id IS NOT NULL) AS personal, l.created_at, l.updated_at`

    const readable = (orgId: OrganizationId, lessonId: LessonId, reader: Reader) =>
      sql`l.org_id = ${orgId} AND l.id = ${lessonId} AND ${lessonReadable(sql, reader, "l")}`

    /** Newest first (lessons_newest), every word of the title query in the title. */
    const page = (input: {
      readonly orgId: OrganizationId
      readonly reader: Reader
      readonly words: ReadonlyArray<string>
      readonly after: readonly [string, string] | null
      readonly limit: number
    }) =>
      sql<LessonPageRow>`
        SELECT ${columns}, ${newestFirst.column(sql, "l")}
        FROM lessons l
        WHERE l.org_id = ${input.orgId} AND ${lessonReadable(sql, input.reader, "l")}
          ${titleHasEveryWord(sql, "l", input.words)}
          ${newestFirst.after(sql, "l", input.after)}
        ORDER BY l.created_at DESC, l.id DESC
        LIMIT ${input.limit}`

    /** The lesson with its pieces in order, limited to published content the reader can read. */
    const find = (orgId: OrganizationId, lessonId: LessonId, reader: Reader) =>
      sql<LessonDetailRow>`
        SELECT ${columns},
          COALESCE((
            SELECT json_agg(json_build_object('id', c.id, 'title', c.title, 'type', c.type) ORDER BY lc.position)
            FROM lesson_content lc JOIN content c ON c.org_id = lc.org_id AND c.id = lc.content_id
            WHERE lc.org_id = l.org_id AND lc.lesson_id = l.id AND ${contentVisible(sql, reader, "c")}
          ), '[]') AS content
        FROM lessons l WHERE ${readable(orgId, lessonId, reader)}`.pipe(Effect.map((rows) => rows[0]))

    /** The readable lesson's policy columns (null without a policy row). */
    const retrainingPolicy = (orgId: OrganizationId, lessonId: LessonId, reader: Reader) =>
      sql<RetrainingPolicyRow>`
        SELECT l.id, p.interval_days, p.completion_mode, p.updated_at
        FROM lessons l
        LEFT JOIN lesson_retraining_policies p ON p.org_id = l.org_id AND p.lesson_id = l.id
        WHERE ${readable(orgId, lessonId, reader)}`.pipe(Effect.map((rows) => rows[0]))

    return { page, find, retrainingPolicy } as const
  })
}) {}
