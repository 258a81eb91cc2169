import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { contentVisible, itemVisible, type Reader } from "./access.js"

export interface EvidencePlaceRow {
  readonly item_id: string
  readonly item_name: string
  readonly content_id: string
  readonly content_title: string
  readonly content_type: "document" | "video" | "guide"
  readonly quote: string | null
  readonly char_start: number | null
  readonly char_end: number | null
  readonly time_start_seconds: number | null
  readonly time_end_seconds: number | null
  readonly chapter_sequence: number | null
  readonly chapter_headline: string | null
  readonly chapter_start: number | null
  readonly chapter_end: number | null
}

/**
 * Where the evidence of some items sits: its content record and the chapter
 * it falls in, with the chapter's range in the content's text so a quote's
 * range can be told relative to the chapter. Only live items the reader can
 * read, and only evidence from published content the reader can read.
 */
export class EvidencePlacesRepo extends Effect.Service<EvidencePlacesRepo>()("@tks/core/EvidencePlacesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * The evidence of `itemIds`, in the order of the ids, each item's most
     * confident first, at most `limit` rows. The chapter is the one the
     * evidence names, else the one whose range holds the quote's range.
     */
    const ofItems = (orgId: OrganizationId, reader: Reader, itemIds: ReadonlyArray<string>, limit: number) =>
      sql<EvidencePlaceRow>`
        SELECT i.id AS item_id, i.name AS item_name, ct.id AS content_id, ct.title AS content_title, ct.type AS content_type,
          e.quote, e.char_start, e.char_end, e.time_start_seconds, e.time_end_seconds,
          ch.sequence AS chapter_sequence, ch.headline AS chapter_headline, ch.char_start AS chapter_start, ch.char_end AS chapter_end
        FROM items i
        JOIN evidence e ON e.org_id = i.org_id AND e.item_id = i.id
        JOIN content ct ON ct.org_id = e.org_id AND ct.id = e.content_id
        LEFT JOIN LATERAL (
          SELECT c.sequence, c.headline, c.char_start, c.char_end FROM chapters c
          WHERE c.org_id = e.org_id AND c.content_id = e.content_id
            AND (c.id = e.chapter_id OR (e.chapter_id IS NULL AND e.char_start >= c.char_start AND e.char_end <= c.char_end))
          ORDER BY c.sequence LIMIT 1
        ) ch ON TRUE
        WHERE i.org_id = ${orgId} AND i.id = ANY(${[...itemIds]})
          AND ${itemVisible(sql, reader, "i")} AND ${contentVisible(sql, reader, "ct")}
        ORDER BY array_position(${[...itemIds]}::text[], i.id), e.confidence DESC, lower(ct.title) COLLATE "C",
          e.char_start, e.time_start_seconds, e.id
        LIMIT ${limit}`

    return { ofItems } as const
  })
}) {}
