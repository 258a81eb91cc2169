import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ContentType, WorkStatus } from "@tks/domain/content"
import { usagePreviewLimit } from "@tks/domain/content"
import type { ContentId, OrganizationId } from "@tks/domain/ids"
import { contentVisible, itemLive, lessonReadable, type Reader, topicVisible } from "../knowledge/access.js"
import { newestFirst } from "../common/keyset.js"
import { titleHasEveryWord } from "../common/text-search.js"
import { direct } from "@tks/db/direct"

export interface ContentRow {
  readonly id: string
  readonly title: string
  readonly type: ContentType
  readonly summary: string | null
  readonly duration_seconds: number | null
  readonly created_at: Date
  readonly updated_at: Date
}

export interface ContentPageRow extends ContentRow {
  readonly created_us: string
}

interface ContentDetailRow extends ContentRow {
  readonly processing_status: WorkStatus
  readonly processing_error: string | null
  readonly indexing_status: WorkStatus
  readonly indexing_error: string | null
}

interface ContentTextRow {
  readonly id: string
  readonly title: string
  readonly type: ContentType
  readonly chapters: ReadonlyArray<{ id: string; sequence: number; headline: string | null; text: string }>
}

interface ContentKnowledgeRow {
  readonly id: string
  readonly title: string
  readonly topics: ReadonlyArray<{ id: string; name: string; slug: string; itemCount: number }>
}

interface ContentUsageRow {
  readonly id: string
  readonly lesson_count: number
  readonly lessons: ReadonlyArray<{ id: string; title: string }>
  readonly topic_count: number
  readonly topics: ReadonlyArray<{ id: string; title: string }>
}

/**
 * The library's reads. Every statement keeps to one organization
 * and to what `contentVisible` lets the reader see (published, readable), so
 * a record out of reach is simply absent. Each read is one statement.
 */
export class ContentRepo extends Effect.Service<ContentRepo>()("@tks/core/ContentRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`c.id, c.title, c.type, c.summary, c.duration_seconds, c.created_at, c.updated_at`

    /**
     * Newest first (content_published_newest, or content_published_type_newest
     * with a type); the title words can use content_title_trgm.
     */
    const page = (input: {
      readonly orgId: OrganizationId
      readonly reader: Reader
      readonly type: ContentType | null
      readonly words: ReadonlyArray<string>
      readonly after: readonly [string, string] | null
      readonly limit: number
    }) =>
      direct(sql, sql<ContentPageRow>`
        SELECT ${columns}, ${newestFirst.column(sql, "c")}
        FROM content c
        WHERE c.org_id = ${input.orgId} AND ${contentVisible(sql, input.reader, "c")}
          ${input.type === null ? sql`` : sql`AND c.type = ${input.type}`}
          ${titleHasEveryWord(sql, "c", input.words)}
          ${newestFirst.after(sql, "c", input.after)}
        ORDER BY c.created_at DESC, c.id DESC
        LIMIT ${input.limit}`)

    const visible = (orgId: OrganizationId, contentId: ContentId, reader: Reader) =>
      sql`c.org_id = ${orgId} AND c.id = ${contentId} AND ${contentVisible(sql, reader, "c")}`

    const find = (orgId: OrganizationId, contentId: ContentId, reader: Reader) =>
      sql<ContentDetailRow>`
        SELECT ${columns}, c.processing_status, c.processing_error, c.indexing_status, c.indexing_error
        FROM content c WHERE ${visible(orgId, contentId, reader)}`.pipe(Effect.map((rows) => rows[0]))

    /** The record with its chapters in sequence order (chapters_org_id_content_id_sequence_key). */
    const text = (orgId: OrganizationId, contentId: ContentId, reader: Reader) =>
      sql<ContentTextRow>`
        SELECT c.id, c.title, c.type,
          COALESCE((
            SELECT json_agg(json_build_object('id', ch.id, 'sequence', ch.sequence, 'headline', ch.headline, 'text', ch.text)
              ORDER BY ch.sequence)
            FROM chapters ch WHERE ch.org_id = c.org_id AND ch.content_id = c.id
          ), '[]') AS chapters
        FROM content c WHERE ${visible(orgId, contentId, reader)}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Topics with at least one live item that has evidence from this record,
     * each with how many such items it has, limited to live topics the reader
     * can read, by name (evidence_by_content).
     */
    const knowledge = (orgId: OrganizationId, contentId: ContentId, reader: Reader) =>
      sql<ContentKnowledgeRow>`
        SELECT c.id, c.title,
          COALESCE((
            SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'itemCount', made.item_count)
              ORDER BY lower(t.name) COLLATE "C", t.id)
            FROM (
              SELECT i.topic_id, count(DISTINCT i.id)::int AS item_count
              FROM evidence e JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
              WHERE e.org_id = c.org_id AND e.content_id = c.id AND ${itemLive(sql, "i")}
              GROUP BY i.topic_id
            ) made
            JOIN topics t ON t.org_id = c.org_id AND t.id = made.topic_id
            WHERE ${topicVisible(sql, reader, "t")}
          ), '[]') AS topics
        FROM content c WHERE ${visible(orgId, contentId, reader)}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Lessons built from this record that the reader can read, and live
     * topics the reader can read whose every piece of evidence (on their live
     * items) comes from this record: true counts and the first entries by
     * title. Evidence from any other record counts against a topic, whoever
     * reads: a topic is "sole" for what it rests on, not for what one reader sees.
     *
     * The candidate topics are a derived table on purpose: written as
     * `t.id IN (...)` the planner guessed 200 of them, the statement's cost
     * passed PostgreSQL's JIT threshold and JIT took 320 ms of a 1 ms query.
     */
    const usage = (orgId: OrganizationId, contentId: ContentId, reader: Reader) =>
      sql<ContentUsageRow>`
        WITH target AS (
          SELECT c.org_id, c.id FROM content c WHERE ${visible(orgId, contentId, reader)}
        ),
        using_lessons AS (
          SELECT l.id, l.title, lower(l.title) COLLATE "C" AS sort_title
          FROM lessons l
          WHERE l.org_id = ${orgId}
            AND l.id IN (
              SELECT lc.lesson_id FROM lesson_content lc JOIN target ON lc.org_id = target.org_id AND lc.content_id = target.id)
            AND ${lessonReadable(sql, reader, "l")}
        ),
        sole_topics AS (
          SELECT t.id, t.name AS title, lower(t.name) COLLATE "C" AS sort_title
          FROM (
            SELECT DISTINCT i.topic_id FROM evidence e
            JOIN target ON e.org_id = target.org_id AND e.content_id = target.id
            JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
            WHERE ${itemLive(sql, "i")}
          ) made
          JOIN topics t ON t.org_id = ${orgId} AND t.id = made.topic_id
          WHERE ${topicVisible(sql, reader, "t")}
            AND NOT EXISTS (
              SELECT 1 FROM items other_item
              JOIN evidence other_evidence ON other_evidence.org_id = other_item.org_id AND other_evidence.item_id = other_item.id
              WHERE other_item.org_id = t.org_id AND other_item.topic_id = t.id AND other_evidence.content_id <> ${contentId}
                AND ${itemLive(sql, "other_item")})
        )
        SELECT target.id,
          (SELECT count(*)::int FROM using_lessons) AS lesson_count,
          COALESCE((
            SELECT json_agg(json_build_object('id', preview.id, 'title', preview.title) ORDER BY preview.sort_title, preview.id)
            FROM (SELECT * FROM using_lessons ORDER BY sort_title, id LIMIT ${usagePreviewLimit}) preview
          ), '[]') AS lessons,
          (SELECT count(*)::int FROM sole_topics) AS topic_count,
          COALESCE((
            SELECT json_agg(json_build_object('id', preview.id, 'title', preview.title) ORDER BY preview.sort_title, preview.id)
            FROM (SELECT * FROM sole_topics ORDER BY sort_title, id LIMIT ${usagePreviewLimit}) preview
          ), '[]') AS topics
        FROM target`.pipe(Effect.map((rows) => rows[0]))

    return { page, find, text, knowledge, usage } as const
  })
}) {}
