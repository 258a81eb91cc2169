import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { Visibility } from "@tks/domain/roles"
import { newId } from "../common/ids.js"
import type { Chapter } from "./chapters.js"

export interface ContentKey {
  readonly orgId: string
  readonly contentId: string
}

/** What processing needs of a content record. */
export interface ContentToProcess {
  readonly type: "document" | "video" | "guide"
  readonly title: string
  readonly titleFinal: boolean
  readonly summary: string | null
  readonly body: string | null
  readonly status: string
  readonly visibility: Visibility
  readonly teamIds: ReadonlyArray<string>
}

/** A content record after processing: what its events name, and where its statuses ended. */
export interface ProcessedContentRow {
  readonly id: string
  readonly title: string
  readonly type: ContentToProcess["type"]
  readonly processing_status: string
  readonly indexing_status: string
}

/** A chapter as stored: its id and where it is. */
export interface StoredChapter {
  readonly id: string
  readonly sequence: number
  readonly headline: string | null
  readonly start: number
  readonly end: number
}

/** The content side of processing: the record, its statuses, its chapters. */
export class ProcessingContentRepo extends Effect.Service<ProcessingContentRepo>()("@tks/core/ProcessingContentRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const key = (k: ContentKey) => sql`org_id = ${k.orgId} AND id = ${k.contentId}`

    const load = (k: ContentKey) =>
      sql<{
        type: ContentToProcess["type"]
        title: string
        title_final: boolean
        summary: string | null
        body: string | null
        status: string
        visibility: Visibility
        team_ids: ReadonlyArray<string>
      }>`
        SELECT c.type, c.title, c.title_final, c.summary, c.body, c.status, c.visibility,
          coalesce((SELECT array_agg(t.team_id ORDER BY t.team_id) FROM content_teams t
                    WHERE t.org_id = c.org_id AND t.content_id = c.id), '{}') AS team_ids
        FROM content c WHERE c.org_id = ${k.orgId} AND c.id = ${k.contentId}`.pipe(
        Effect.map((rows) =>
          Option.fromNullable(rows[0]).pipe(Option.map((row): ContentToProcess => ({
            type: row.type,
            title: row.title,
            titleFinal: row.title_final,
            summary: row.summary,
            body: row.body,
            status: row.status,
            visibility: row.visibility,
            teamIds: row.team_ids
          })))
        )
      )

    const startProcessing = (k: ContentKey) =>
      sql`UPDATE content SET processing_status = 'PROCESSING', processing_error = NULL,
            indexing_status = 'PENDING', indexing_error = NULL WHERE ${key(k)}`.pipe(Effect.asVoid)

    const processingCompleted = (k: ContentKey) =>
      sql`UPDATE content SET processing_status = 'COMPLETED', processing_error = NULL WHERE ${key(k)}`.pipe(Effect.asVoid)

    const startIndexing = (k: ContentKey) =>
      sql`UPDATE content SET indexing_status = 'PROCESSING', indexing_error = NULL WHERE ${key(k)}`.pipe(Effect.asVoid)

    const indexingCompleted = (k: ContentKey) =>
      sql`UPDATE content SET indexing_status = 'COMPLETED', indexing_error = NULL WHERE ${key(k)}`.pipe(Effect.asVoid)

    /**
     * The job failed for good: the stage it was in says why. Before stage 4
     * both statuses are FAILED (indexing never ran, and a caller polling it
     * must see an end); during stage 4 only indexing is.
     */
    const failed = (k: ContentKey, reason: string) =>
      sql<ProcessedContentRow>`
        UPDATE content SET
          processing_status = CASE WHEN processing_status = 'COMPLETED' THEN 'COMPLETED' ELSE 'FAILED' END,
          processing_error = CASE WHEN processing_status = 'COMPLETED' THEN NULL ELSE ${reason} END,
          indexing_status = 'FAILED',
          indexing_error = CASE WHEN processing_status = 'COMPLETED' THEN ${reason} ELSE 'Not indexed: processing failed' END
        WHERE ${key(k)}
        RETURNING id, title, type, processing_status, indexing_status`.pipe(Effect.map((rows) => rows[0]))

    /** The record as processing left it, for the record of its outcome. */
    const outcome = (k: ContentKey) =>
      sql<ProcessedContentRow>`
        SELECT id, title, type, processing_status, indexing_status FROM content WHERE ${key(k)}`.pipe(Effect.map((rows) => rows[0]))

    /** The title processing found, when none was final yet; the summary when there is none. */
    const refine = (k: ContentKey, found: { readonly title: string | null; readonly summary: string | null }) =>
      sql`
        UPDATE content SET
          title = CASE WHEN NOT title_final AND ${found.title}::text IS NOT NULL THEN ${found.title} ELSE title END,
          title_final = title_final OR ${found.title}::text IS NOT NULL,
          summary = coalesce(summary, ${found.summary}),
          updated_at = CASE WHEN (NOT title_final AND ${found.title}::text IS NOT NULL AND title <> ${found.title})
                              OR (summary IS NULL AND ${found.summary}::text IS NOT NULL) THEN now() ELSE updated_at END
        WHERE ${key(k)}`.pipe(Effect.asVoid)

    /**
     * Makes the content's chapters exactly `chapters`, in one transaction:
     * rows are matched by sequence (ids stay stable across runs, so links and
     * evidence keep pointing at them), and chapters past the last are removed.
     */
    const replaceChapters = (k: ContentKey, chapters: ReadonlyArray<Chapter>) =>
      sql.withTransaction(Effect.gen(function*() {
        const stored = chapters.length === 0 ? [] : yield* sql<{
          id: string
          sequence: number
          headline: string | null
          char_start: number
          char_end: number
        }>`
          INSERT INTO chapters (org_id, id, content_id, sequence, headline, text, char_start, char_end)
          SELECT ${k.orgId}, c.id, ${k.contentId}, c.sequence, c.headline, c.text, c.char_start, c.char_end
          FROM unnest(${chapters.map(() => newId("chapter"))}::text[], ${chapters.map((c) => c.sequence)}::int[],
                      ${chapters.map((c) => c.headline)}::text[], ${chapters.map((c) => c.text)}::text[],
                      ${chapters.map((c) => c.start)}::int[], ${chapters.map((c) => c.end)}::int[])
            AS c(id, sequence, headline, text, char_start, char_end)
          ON CONFLICT (org_id, content_id, sequence) DO UPDATE SET
            headline = excluded.headline, text = excluded.text, char_start = excluded.char_start, char_end = excluded.char_end,
            search_vector = CASE WHEN chapters.text = excluded.text AND chapters.headline IS NOT DISTINCT FROM excluded.headline
                                 THEN chapters.search_vector END
          RETURNING id, sequence, headline, char_start, char_end`
        // Evidence in a removed chapter keeps its place in the body; its chapter_id is set null by the foreign key.
        yield* sql`DELETE FROM chapters WHERE org_id = ${k.orgId} AND content_id = ${k.contentId} AND sequence > ${chapters.length}`
        return stored
          .map((row): StoredChapter => ({
            id: row.id,
            sequence: row.sequence,
            headline: row.headline,
            start: row.char_start,
            end: row.char_end
          }))
          .sort((a, b) => a.sequence - b.sequence)
      }))

    return { load, startProcessing, processingCompleted, startIndexing, indexingCompleted, failed, outcome, refine, replaceChapters } as const
  })
}) {}
