import { Effect } from "effect"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "./access.js"
import { type EvidencePlaceRow, EvidencePlacesRepo } from "./evidence-places-repo.js"
import { traced } from "../common/traced.js"

/** A piece of evidence located for citing: its content record, its chapter, and its place there. */
export interface CitedEvidence {
  readonly itemId: string
  readonly itemName: string
  readonly content: { readonly id: string; readonly title: string; readonly type: "document" | "video" | "guide" }
  readonly quote: string | null
  /** The chapter the evidence is in, when known. */
  readonly chapter: { readonly sequence: number; readonly headline: string | null } | null
  /** The quote's range in that chapter's text (end exclusive), when the quote lies inside the chapter. */
  readonly chapterRange: { readonly start: number; readonly end: number } | null
  readonly timeRange: { readonly startSeconds: number; readonly endSeconds: number } | null
}

/**
 * Evidence ranges are stored in the coordinates of the content's whole
 * text; a chapter's text is the slice of it at the chapter's own range, so
 * the quote's range in the chapter is the difference, provided the chapter
 * holds all of it.
 */
const chapterRangeOf = (row: EvidencePlaceRow): CitedEvidence["chapterRange"] => {
  const { chapter_end, chapter_start, char_end, char_start } = row
  if (char_start === null || char_end === null || chapter_start === null || chapter_end === null) return null
  if (char_start < chapter_start || char_end > chapter_end || char_end < char_start) return null
  return { start: char_start - chapter_start, end: char_end - chapter_start }
}

const citedView = (row: EvidencePlaceRow): CitedEvidence => ({
  itemId: row.item_id,
  itemName: row.item_name,
  content: { id: row.content_id, title: row.content_title, type: row.content_type },
  quote: row.quote,
  chapter: row.chapter_sequence === null ? null : { sequence: row.chapter_sequence, headline: row.chapter_headline },
  chapterRange: chapterRangeOf(row),
  timeRange: row.time_start_seconds === null || row.time_end_seconds === null
    ? null
    : { startSeconds: row.time_start_seconds, endSeconds: row.time_end_seconds }
})

/**
 * Where items' evidence sits, for answers that cite it (the MCP tools'
 * resource links): only live items and published content that the caller
 * can read, the same reach as the content text read, so a citation never
 * names a record the caller could not open.
 */
export class EvidencePlaces extends Effect.Service<EvidencePlaces>()("@tks/core/EvidencePlaces", {
  effect: Effect.gen(function*() {
    const repo = yield* EvidencePlacesRepo

    /** The evidence of `itemIds` in their order, each item's most confident first, at most `limit`. */
    const ofItems = traced("EvidencePlaces.ofItems")(function*(access: Access, itemIds: ReadonlyArray<string>, limit: number) {
      if (itemIds.length === 0 || limit < 1) return []
      const rows = yield* repo.ofItems(access.actor.organizationId, readerOf(access.actor), itemIds, limit)
      return rows.map(citedView)
    })

    return { ofItems } as const
  }),
  dependencies: [EvidencePlacesRepo.Default]
}) {}
