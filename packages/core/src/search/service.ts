import { Effect } from "effect"
import type { Access } from "@tks/domain/policy"
import { renderSnippet, type SearchParams, type SearchResult, searchDefaultLimit } from "@tks/domain/search"
import { readerOf } from "../knowledge/access.js"
import { Links } from "../common/links.js"
import { type HitRow, SearchRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/**
 * GET /v1/search: one ranked page of topics and
 * chapters the caller can read.
 *
 * Full-text matches come first, by ts_rank_cd; when they do not fill the
 * page, near spellings of topic names (and their items' names), chapter
 * headlines and content titles follow, by trigram word similarity, each
 * record once. `score` keeps that order on one scale: a full-text match
 * scores 0.5 + rank/2 (above 0.5), a near spelling similarity/2 (0.5 at most).
 */
export class Search extends Effect.Service<Search>()("@tks/core/Search", {
  effect: Effect.gen(function*() {
    const repo = yield* SearchRepo
    const links = yield* Links

    const view = (row: HitRow, score: number): SearchResult => {
      const base = { id: row.id, title: row.title, snippet: renderSnippet(row.raw_snippet), score }
      if (row.type === "topic") return { type: "topic", ...base, url: links.topic(row.id) }
      const contentId = row.content_id ?? ""
      const sequence = row.sequence ?? 1
      return {
        type: "chapter",
        ...base,
        url: `${links.content(contentId)}#chapter-${sequence}`,
        contentId,
        contentTitle: row.content_title ?? "",
        sequence
      }
    }

    const search = traced("Search.search")(function*(access: Access, params: SearchParams) {
      const types = params.types ?? ["topic", "chapter"]
      const input = {
        orgId: access.actor.organizationId,
        reader: readerOf(access.actor),
        text: params.query,
        topics: types.includes("topic"),
        chapters: types.includes("chapter"),
        limit: params.limit ?? searchDefaultLimit
      }
      const matches = yield* repo.fullText(input)
      const data = matches.map((row) => view(row, 0.5 + row.relevance / 2))
      if (matches.length < input.limit) {
        const idsOf = (type: HitRow["type"]) => matches.filter((row) => row.type === type).map((row) => row.id)
        const near = yield* repo.nearSpellings(
          { ...input, limit: input.limit - matches.length },
          { topics: idsOf("topic"), chapters: idsOf("chapter") }
        )
        data.push(...near.map((row) => view(row, row.relevance / 2)))
      }
      return { data, nextCursor: null }
    })

    return { search } as const
  }),
  dependencies: [SearchRepo.Default, Links.Default]
}) {}
