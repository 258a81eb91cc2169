import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { List } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { SearchParams, SearchResult } from "@tks/domain/search"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** Search: one ranked page, limit 1 to 50, default 10 (also the search_service tool). */
export class SearchGroup extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("search", "/search")
      .setUrlParams(SearchParams)
      .addSuccess(List(SearchResult))
      .annotate(OpenApi.Summary, "Search topics and chapters")
      .annotate(
        OpenApi.Description,
        "One ranked page (no cursor; nextCursor is always null) of topics and content chapters the caller can read, best first. Full-text search in English (stemmed; \"quoted phrases\", or and -word work as on a web search engine); a match in a name or headline outranks one in the text. When fewer than `limit` full-text matches exist, names and headlines spelled like the query follow (typo tolerance), with lower scores. Archived topics, topics of spaces the caller cannot read and chapters of content the caller cannot read, or that is not published, are never returned. Snippets are HTML-safe: escaped text with <mark>…</mark> around matched words."
      )
      .pipe(requires(policies.search.query))
  )
  .middleware(Authentication) {}
