import { Schema } from "effect"
import { escapeHtml } from "./html.js"

/**
 * GET /v1/search: one ranked page of
 * topics and chapters the caller can read, with highlighted snippets.
 */

export const SearchType = Schema.Literal("topic", "chapter")
export type SearchType = typeof SearchType.Type

const typesMessage = () => "types must be topic, chapter or both (comma-separated or repeated)"

/**
 * `types` as it arrives: `types=topic,chapter`, or the parameter repeated
 * (`types=topic&types=chapter`), or both. Decoded to the distinct types asked for.
 */
export const SearchTypes = Schema.transform(
  Schema.Array(Schema.String.pipe(Schema.pattern(/^(topic|chapter)(,(topic|chapter))*$/, { message: typesMessage }))),
  Schema.Array(SearchType),
  {
    strict: true,
    decode: (texts) => [...new Set(texts.flatMap((text) => text.split(",")))].filter((type) => type === "topic" || type === "chapter"),
    encode: (types) => types
  }
).annotations({
  jsonSchema: { type: "array", items: { type: "string", enum: ["topic", "chapter"] } },
  description: "What to search: topic, chapter or both (default both). Comma-separated (types=topic,chapter) or repeated"
})

const limitMessage = () => "limit must be an integer from 1 to 50"

/** `limit` of a search: 1 to 50, default 10; digits only, as `Limit` of pagination.ts. */
export const SearchLimit = Schema.transform(
  Schema.String.pipe(Schema.pattern(/^[1-9][0-9]?$/, { message: limitMessage })).annotations({
    jsonSchema: { type: "integer", minimum: 1, maximum: 50, default: 10 }
  }),
  Schema.Int.pipe(Schema.between(1, 50, { message: limitMessage })),
  { strict: true, decode: (text) => Number(text), encode: (limit) => String(limit) }
)
export const searchDefaultLimit = 10

export const maxQueryLength = 500

/** The words to look for: trimmed, not blank, at most 500 characters. */
export const SearchQuery = Schema.Trim.pipe(
  Schema.nonEmptyString({ message: () => "query must not be blank" }),
  Schema.maxLength(maxQueryLength, { message: () => `query must be at most ${maxQueryLength} characters` })
).annotations({
  description: "Words to look for (web-search syntax: \"quoted phrase\", or, -word). Trimmed; 1 to 500 characters"
})

export const SearchParams = Schema.Struct({
  query: SearchQuery,
  types: Schema.optional(SearchTypes),
  limit: Schema.optional(SearchLimit.annotations({ description: "How many results, 1 to 50 (default 10)" }))
})
export type SearchParams = typeof SearchParams.Type

const snippet = Schema.String.annotations({
  description:
    "An excerpt as HTML-safe text: the source text with &, <, >, \" and ' escaped as entities, and each matched word wrapped in <mark>…</mark> (the only markup it ever holds)"
})
const score = Schema.Number.annotations({
  description:
    "Relevance from 0 to 1; results come in descending order. Above 0.5: a full-text match (ts_rank_cd); 0.5 and below: a near spelling of a name or headline"
})

export const TopicSearchResult = Schema.Struct({
  type: Schema.Literal("topic"),
  id: Schema.String,
  title: Schema.String.annotations({ description: "The topic's name" }),
  snippet,
  score,
  url: Schema.String
}).annotations({ identifier: "TopicSearchResult" })
export type TopicSearchResult = typeof TopicSearchResult.Type

export const ChapterSearchResult = Schema.Struct({
  type: Schema.Literal("chapter"),
  id: Schema.String,
  title: Schema.String.annotations({ description: "The chapter's headline, or its content's title when it has none" }),
  snippet,
  score,
  url: Schema.String.annotations({ description: "The content's web link with #chapter-<sequence>" }),
  contentId: Schema.String,
  contentTitle: Schema.String,
  sequence: Schema.Number.annotations({ jsonSchema: { type: "integer", minimum: 1 } })
}).annotations({ identifier: "ChapterSearchResult" })
export type ChapterSearchResult = typeof ChapterSearchResult.Type

export const SearchResult = Schema.Union(TopicSearchResult, ChapterSearchResult).annotations({
  identifier: "SearchResult"
})
export type SearchResult = typeof SearchResult.Type

/**
 * The markers ts_headline puts around matched words: two private-use
 * characters, which no markup can contain. The service removes them from the
 * source text first, so every marker in a raw snippet is one it placed.
 */
export const snippetMarks = { start: "\uE000", stop: "\uE001" } as const

/**
 * A raw snippet as HTML-safe text: everything escaped, then the markers
 * turned into <mark> and </mark>. Whatever the source text holds, the result
 * holds no markup but those.
 */
export const renderSnippet = (raw: string): string =>
  escapeHtml(raw)
    .replaceAll(snippetMarks.start, "<mark>")
    .replaceAll(snippetMarks.stop, "</mark>")
