import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Context, Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { snippetMarks } from "@tks/domain/search"
import { PLANNED_PER_CALL } from "@tks/db/planned-per-call"
import { contentVisible, itemLive, type Reader, topicVisible } from "../knowledge/access.js"
import { direct } from "@tks/db/direct"

/** A result row before its view: `raw_snippet` carries ts_headline's markers (snippetMarks). */
export interface HitRow {
  readonly type: "topic" | "chapter"
  readonly id: string
  /** ts_rank_cd (normalised to 0..1) for a full-text hit; word_similarity for a near spelling. */
  readonly relevance: number
  readonly title: string
  readonly raw_snippet: string
  readonly content_id: string | null
  readonly content_title: string | null
  readonly sequence: number | null
}

export interface SearchInput {
  readonly orgId: OrganizationId
  readonly reader: Reader
  readonly text: string
  readonly topics: boolean
  readonly chapters: boolean
  readonly limit: number
}

/**
 * How many full-text matches of each kind are ranked at most: 1,000 rank in
 * about 5 ms. A word rarer than that has all its matches ranked. A layer
 * may set another (a test lowers it to make a few rows "a common word").
 */
export class SearchCandidates extends Context.Reference<SearchCandidates>()("@tks/core/SearchCandidates", {
  defaultValue: () => 1000
}) {}

/**
 * Full-text search over `search_vector` (migration 0003; written by
 * search-index/repo.ts: name/headline weight A, description/text B, item
 * names and bodies C), in the `english` configuration, with the GIN indexes
 * topics_search and chapters_search. Every statement ranks first (a LIMIT per
 * kind, then one merged LIMIT) and computes ts_headline only for the rows of
 * the page.
 *
 * The near-spelling fallback compares the query with names and headlines by
 * word_similarity (`<%`, pg_trgm's threshold 0.6), which the trigram GIN
 * indexes serve: topics_name_trgm and content_title_trgm; items' names and
 * chapters' headlines need theirs (lower(name), lower(headline)) to stay
 * index-served at scale.
 *
 * Measured with EXPLAIN ANALYZE on PostgreSQL 15 at 20,000 content records
 * (100,000 chapters) and 5,000 topics (50,000 items): 1 to 45 ms per
 * statement, the most for a word in a fifth of all chapters with limit 50.
 * Planner estimates stay far below PostgreSQL's JIT threshold (100,000),
 * which would add 80 ms to 2 s.
 */
export class SearchRepo extends Effect.Service<SearchRepo>()("@tks/core/SearchRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The query, parsed once per use; immutable, so the planner folds it into a constant the GIN index takes. */
    const tsQuery = (text: string) => sql`websearch_to_tsquery('english', ${text})`
    /**
     * The query with its phrases loosened to "all these words" (`<->` and
     * `<N>` become `&`): what the GIN index can answer alone. A phrase is
     * checked against each record's positions, so candidates are found with
     * this and the phrase is checked on them only. A negated phrase
     * (`-"a b"`, `!( … )`) would be tightened by the same change, so such a
     * query is kept as it is.
     */
    const looseQuery = (text: string) =>
      sql`(CASE WHEN strpos(${tsQuery(text)}::text, '!(') > 0 THEN ${tsQuery(text)}
        ELSE regexp_replace(${tsQuery(text)}::text, '<(-|[0-9]+)>', '&', 'g')::tsquery END)`
    /** ts_rank_cd normalised by rank/(rank+1): 0..1, in the same order. */
    const rank = (vector: Fragment, text: string) => sql`ts_rank_cd(${vector}, ${tsQuery(text)}, 32)`

    const candidates = yield* SearchCandidates
    /** How close a near spelling must be (word_similarity, 0..1). */
    const nearEnough = 0.6
    /** How many of the closest item names are checked for the live graph. */
    const nearCandidates = 200

    const marks = `${snippetMarks.start}${snippetMarks.stop}`
    const selection = `StartSel=${snippetMarks.start}, StopSel=${snippetMarks.stop}`
    /** A short text is its own snippet; a longer one gives up to two excerpts around the best matches. */
    const shortText = 240
    const wholeText = `HighlightAll=true, ${selection}`
    const excerpts = `MaxFragments=2, MaxWords=24, MinWords=10, ShortWord=3, FragmentDelimiter=" … ", ${selection}`

    /**
     * Titles and snippets for the rows of `page` (type, id, relevance), in the
     * page's order. Markers already in the source text are removed first, so
     * every marker in a snippet is one ts_headline placed.
     */
    // Planned per call: which plan is best depends on the words searched for (a generic plan made some 10 times slower).
    const decorate = (input: SearchInput, page: Fragment) =>
      direct(sql, sql<HitRow>`${sql.literal(PLANNED_PER_CALL)}
        WITH RECURSIVE page AS MATERIALIZED (${page}),
        -- Items of the page's topics out of the live graph: archived or superseded ones and all below them.
        dead AS (
          SELECT i.id FROM page JOIN items i ON i.org_id = ${input.orgId} AND i.topic_id = page.id AND i.state <> 'live'
          WHERE page.type = 'topic'
          UNION
          -- One index lookup per parent (LATERAL ... OFFSET 0), never a hash of the whole items table.
          SELECT i.id FROM dead CROSS JOIN LATERAL (
            SELECT i.id FROM items i WHERE i.org_id = ${input.orgId} AND i.parent_item_id = dead.id OFFSET 0
          ) i
        ),
        topic_items AS (
          SELECT i.topic_id, string_agg(i.name || coalesce(': ' || i.body, ''), '; ' ORDER BY lower(i.name) COLLATE "C", i.id) AS items
          FROM page JOIN items i ON i.org_id = ${input.orgId} AND i.topic_id = page.id AND i.state = 'live'
          WHERE page.type = 'topic' AND NOT EXISTS (SELECT 1 FROM dead WHERE dead.id = i.id)
          GROUP BY i.topic_id
        ),
        source AS MATERIALIZED (
          SELECT page.type, page.id, page.relevance,
            CASE page.type WHEN 'topic' THEN t.name ELSE coalesce(ch.headline, c.title) END AS title,
            -- A topic's snippet is cut from its name, description and live items, as its vector holds them.
            translate(CASE page.type WHEN 'topic' THEN concat_ws(' — ', t.name, t.description, ti.items) ELSE ch.text END, ${marks}, '') AS text,
            c.id AS content_id, c.title AS content_title, ch.sequence
          FROM page
          LEFT JOIN topics t ON page.type = 'topic' AND t.org_id = ${input.orgId} AND t.id = page.id
          LEFT JOIN topic_items ti ON page.type = 'topic' AND ti.topic_id = page.id
          LEFT JOIN chapters ch ON page.type = 'chapter' AND ch.org_id = ${input.orgId} AND ch.id = page.id
          LEFT JOIN content c ON c.org_id = ch.org_id AND c.id = ch.content_id
        )
        SELECT type, id, relevance, title, content_id, content_title, sequence,
          CASE WHEN length(text) <= ${shortText}
            THEN ts_headline('english', text, ${tsQuery(input.text)}, ${wholeText})
            ELSE ts_headline('english', text, ${tsQuery(input.text)}, ${excerpts})
          END AS raw_snippet
        FROM source
        ORDER BY relevance DESC, type, id`)

    const union = (branches: ReadonlyArray<Fragment | null>) => {
      const present = branches.filter((branch): branch is Fragment => branch !== null)
      return present.slice(1).reduce((all, branch) => sql`${all} UNION ALL ${branch}`, present[0] ?? sql`SELECT NULL::text AS type, NULL::text AS id, NULL::real AS relevance WHERE FALSE`)
    }

    /**
     * The best full-text matches the reader can read, best first, at most
     * `limit`. Ranking reads every candidate's vector, so a word found in
     * thousands of records would cost as many rows: at most `candidates`
     * matches of each kind are ranked (all of them for any word rarer than that).
     *
     * Which matches are ranked is fixed by an order (topic id; content id,
     * then chapter sequence), so a common word gives the same page on every
     * call: without one PostgreSQL returns them as it scans, and a scan of a
     * large table may start anywhere (synchronized scans). Ranking every match
     * instead cost 54 ms of database CPU for a word in 24,000 chapters; the
     * order costs 0 to 3 ms (chapters are read in the order of an index, a
     * content record's together: one lookup of its visibility for all of them).
     */
    const fullText = (input: SearchInput) => {
      const { limit, orgId, reader, text } = input
      const topics = input.topics
        ? sql`(SELECT 'topic'::text AS type, m.id, ${rank(sql`m.search_vector`, text)} AS relevance FROM (
              SELECT t.id, t.search_vector FROM topics t
              WHERE t.org_id = ${orgId} AND t.search_vector @@ ${looseQuery(text)} AND ${topicVisible(sql, reader, "t")}
              ORDER BY t.id LIMIT ${candidates}
            ) m WHERE m.search_vector @@ ${tsQuery(text)} ORDER BY relevance DESC, m.id LIMIT ${limit})`
        : null
      const chapters = input.chapters
        ? sql`(SELECT 'chapter'::text AS type, m.id, ${rank(sql`m.search_vector`, text)} AS relevance FROM (
              SELECT ch.id, ch.search_vector FROM chapters ch JOIN content c ON c.org_id = ch.org_id AND c.id = ch.content_id
              WHERE ch.org_id = ${orgId} AND ch.search_vector @@ ${looseQuery(text)} AND ${contentVisible(sql, reader, "c")}
              ORDER BY ch.content_id, ch.sequence LIMIT ${candidates}
            ) m WHERE m.search_vector @@ ${tsQuery(text)} ORDER BY relevance DESC, m.id LIMIT ${limit})`
        : null
      return decorate(input, sql`SELECT * FROM (${union([topics, chapters])}) hits ORDER BY relevance DESC, type, id LIMIT ${limit}`)
    }

    /**
     * Near spellings of the query in topic names (and the names of their live
     * items), chapter headlines and content titles (a title stands for the
     * content's first chapter), leaving out what `found` already holds.
     *
     * `<%` (pg_trgm's word_similarity_threshold, 0.6) is what the trigram
     * indexes serve; a match must be closer than that: at 0.6 a four-letter
     * word matches any word sharing its first three letters ("fire", "first").
     *
     * What a near spelling costs is comparing it with every name that shares
     * its trigrams (a typo of a common word: about 1,000 titles and 350 item
     * names in the bench library), so each is compared as few times as
     * possible:
     * - the index's recheck (`<%`) and the closeness (`word_similarity`) are
     *   the only comparisons of a row: the closeness is computed once, in a
     *   subquery the planner keeps (OFFSET 0), and filtered outside it (it
     *   was also computed in the filter: three comparisons a row);
     * - the query reaches `<%` as a subquery's value, not a constant: with a
     *   constant the planner estimates `<%` by running it on the statistics
     *   sample of each column (up to 200 values each), on every search.
     * Together: 45 -> 34 ms of database CPU for the bench's typo on
     * PostgreSQL 15 (planning 7 -> 3.5 ms), 83 -> 60 ms on the embedded database.
     */
    const nearSpellings = (input: SearchInput, found: { readonly topics: ReadonlyArray<string>; readonly chapters: ReadonlyArray<string> }) => {
      const { limit, orgId, reader } = input
      const needle = input.text.toLowerCase()
      const closeness = (column: Fragment) => sql`word_similarity(${needle}, ${column})`
      const spelledNear = (column: Fragment) => sql`(SELECT ${needle}::text) <% ${column}`
      const topics = input.topics
        ? sql`(SELECT 'topic'::text AS type, m.id, max(m.relevance) AS relevance FROM (
              SELECT t.id, t.relevance FROM (
                SELECT t.id, ${closeness(sql`lower(t.name)`)} AS relevance FROM topics t
                WHERE t.org_id = ${orgId} AND ${spelledNear(sql`lower(t.name)`)} OFFSET 0
              ) t WHERE t.relevance > ${nearEnough}
              UNION ALL
              -- The closest item names first, then whether they are in the live graph: that check walks
              -- up each item's parents, so it runs on a few rows only.
              SELECT i.topic_id, i.relevance FROM (
                SELECT * FROM (
                  SELECT i.org_id, i.id, i.topic_id, i.parent_item_id, i.state, ${closeness(sql`lower(i.name)`)} AS relevance FROM items i
                  WHERE i.org_id = ${orgId} AND i.state = 'live' AND ${spelledNear(sql`lower(i.name)`)} OFFSET 0
                ) i WHERE i.relevance > ${nearEnough}
                ORDER BY i.relevance DESC, i.id LIMIT ${nearCandidates}
              ) i WHERE ${itemLive(sql, "i")}
            ) m JOIN topics t ON t.org_id = ${orgId} AND t.id = m.id
            WHERE ${topicVisible(sql, reader, "t")} AND NOT (t.id = ANY(${[...found.topics]}))
            GROUP BY m.id ORDER BY relevance DESC, m.id LIMIT ${limit})`
        : null
      const chapters = input.chapters
        ? sql`(SELECT 'chapter'::text AS type, m.id, max(m.relevance) AS relevance FROM (
              SELECT ch.id, ch.relevance FROM (
                SELECT ch.id, ${closeness(sql`lower(ch.headline)`)} AS relevance
                FROM chapters ch JOIN content c ON c.org_id = ch.org_id AND c.id = ch.content_id
                WHERE ch.org_id = ${orgId} AND ${spelledNear(sql`lower(ch.headline)`)} AND ${contentVisible(sql, reader, "c")} OFFSET 0
              ) ch WHERE ch.relevance > ${nearEnough}
              UNION ALL
              -- The closest titles first, then their first chapters: a near spelling of a common word
              -- matches thousands of titles, and the chapter lookup should run on a few only.
              SELECT first.id, c.relevance FROM (
                SELECT * FROM (
                  SELECT c.org_id, c.id, ${closeness(sql`lower(c.title)`)} AS relevance FROM content c
                  WHERE c.org_id = ${orgId} AND ${spelledNear(sql`lower(c.title)`)} AND ${contentVisible(sql, reader, "c")} OFFSET 0
                ) c WHERE c.relevance > ${nearEnough}
                ORDER BY c.relevance DESC, c.id LIMIT ${nearCandidates}
              ) c
              CROSS JOIN LATERAL (
                SELECT ch.id FROM chapters ch WHERE ch.org_id = c.org_id AND ch.content_id = c.id ORDER BY ch.sequence LIMIT 1
              ) first
            ) m
            WHERE NOT (m.id = ANY(${[...found.chapters]}))
            GROUP BY m.id ORDER BY relevance DESC, m.id LIMIT ${limit})`
        : null
      return decorate(input, sql`SELECT * FROM (${union([topics, chapters])}) hits ORDER BY relevance DESC, type, id LIMIT ${limit}`)
    }

    return { fullText, nearSpellings } as const
  })
}) {}
