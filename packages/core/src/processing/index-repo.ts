import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { SearchIndexRepo } from "../search-index/repo.js"

/** Related topics kept per topic, and the least score kept. */
export const RELATED_PER_TOPIC = 5
export const RELATED_MIN_SCORE = 0.05
// What sharing one piece of content adds to a pair's score (counted for up to three pieces).
const SHARED_CONTENT_WEIGHT = 0.1

export interface RelatedPair {
  readonly topicId: string
  readonly relatedId: string
  readonly score: number
}

/**
 * Stages 3 and 4: related topics and the full-text index (the vectors of
 * search-index/repo.ts, the same the fixture import writes).
 */
export class ProcessingIndexRepo extends Effect.Service<ProcessingIndexRepo>()("@tks/core/ProcessingIndexRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const searchIndex = yield* SearchIndexRepo
    const topicVector = searchIndex.topicVector

    /**
     * For each topic in `topicIds`, its best related live topics of the
     * organization (at most RELATED_PER_TOPIC, score at least RELATED_MIN_SCORE,
     * ties by id). Score: ts_rank of the other topic's vector against the
     * topic's own terms (name and description, any of them), plus
     * SHARED_CONTENT_WEIGHT per piece of content both have evidence from. The
     * given topics are compared through the vectors stage 4 is about to write
     * (computed here), the others through their stored ones, so the answer
     * is the same however often it runs.
     */
    const relatedTopics = (orgId: string, topicIds: ReadonlyArray<string>) =>
      topicIds.length === 0 ? Effect.succeed([] as ReadonlyArray<RelatedPair>) : sql<{ topic_id: string; related_id: string; score: number }>`
        WITH touched AS (
          SELECT t.id, ${topicVector} AS vector,
            -- Any of the topic's stemmed terms. websearch_to_tsquery never
            -- rejects its input, where a hand-built query string could.
            websearch_to_tsquery('simple', array_to_string(
              tsvector_to_array(to_tsvector('english', t.name || ' ' || coalesce(t.description, ''))), ' or ')) AS query
          FROM topics t WHERE t.org_id = ${orgId} AND t.id = ANY(${topicIds}::text[])
        ),
        queries AS (SELECT id, query FROM touched WHERE numnode(query) > 0),
        by_text AS (
          SELECT q.id AS topic_id, o.id AS related_id, ts_rank(o.search_vector, q.query)::float8 AS score
          FROM queries q JOIN topics o ON o.org_id = ${orgId} AND o.search_vector @@ q.query
          WHERE o.state = 'live' AND o.id <> ALL(${topicIds}::text[])
          UNION ALL
          SELECT q.id, o.id, ts_rank(o.vector, q.query)::float8
          FROM queries q JOIN touched o ON o.id <> q.id AND o.vector @@ q.query
        ),
        topic_content AS (
          SELECT DISTINCT i.topic_id, e.content_id FROM evidence e
          JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
          WHERE e.org_id = ${orgId} AND i.topic_id = ANY(${topicIds}::text[])
        ),
        any_content_topic AS (
          SELECT DISTINCT e.content_id, i.topic_id FROM evidence e
          JOIN items i ON i.org_id = e.org_id AND i.id = e.item_id
          WHERE e.org_id = ${orgId} AND e.content_id = ANY(ARRAY(SELECT DISTINCT content_id FROM topic_content))
        ),
        -- Live topics only, checked by key: joined to topics before statistics
        -- exist, the planner crossed topics with evidence (seconds at 1,700 rows).
        content_topic AS (
          SELECT * FROM any_content_topic WHERE topic_id = ANY(ARRAY(
            SELECT id FROM topics WHERE org_id = ${orgId} AND state = 'live'
              AND id = ANY(ARRAY(SELECT DISTINCT topic_id FROM any_content_topic))))
        ),
        by_content AS (
          SELECT tc.topic_id, ct.topic_id AS related_id, ${SHARED_CONTENT_WEIGHT}::float8 * least(count(*), 3) AS score
          FROM topic_content tc JOIN content_topic ct ON ct.content_id = tc.content_id AND ct.topic_id <> tc.topic_id
          GROUP BY tc.topic_id, ct.topic_id
        ),
        scored AS (
          SELECT topic_id, related_id, sum(score) AS score
          FROM (SELECT * FROM by_text UNION ALL SELECT * FROM by_content) s
          GROUP BY topic_id, related_id
        ),
        ranked AS (
          SELECT *, row_number() OVER (PARTITION BY topic_id ORDER BY score DESC, related_id) AS place
          FROM scored WHERE score >= ${RELATED_MIN_SCORE}::float8
        )
        SELECT topic_id, related_id, score FROM ranked WHERE place <= ${RELATED_PER_TOPIC}
        ORDER BY topic_id, place`.pipe(
        Effect.map((rows) => rows.map((row): RelatedPair => ({ topicId: row.topic_id, relatedId: row.related_id, score: row.score })))
      )

    /**
     * Replaces the computed `related` rows of these topics (either direction)
     * with `pairs`, written both ways. Curated rows are never touched: where
     * one exists for a pair, it stays and the computed one is not written.
     */
    const replaceRelated = (orgId: string, topicIds: ReadonlyArray<string>, pairs: ReadonlyArray<RelatedPair>) =>
      Effect.gen(function*() {
        const both = new Map<string, RelatedPair>()
        for (const pair of pairs) {
          for (const [a, b] of [[pair.topicId, pair.relatedId], [pair.relatedId, pair.topicId]] as const) {
            const key = `${a} ${b}`
            const seen = both.get(key)
            if (seen === undefined || seen.score < pair.score) both.set(key, { topicId: a, relatedId: b, score: pair.score })
          }
        }
        // In key order, so two jobs writing overlapping rows take their locks in the same order.
        const rows = [...both.values()].sort((x, y) => x.topicId.localeCompare(y.topicId) || x.relatedId.localeCompare(y.relatedId))
        yield* sql`
          DELETE FROM topic_relations
          WHERE org_id = ${orgId} AND kind = 'related' AND origin = 'computed'
            AND (topic_id = ANY(${topicIds}::text[]) OR related_topic_id = ANY(${topicIds}::text[]))`
        if (rows.length === 0) return
        yield* sql`
          INSERT INTO topic_relations (org_id, topic_id, related_topic_id, kind, origin, score)
          SELECT ${orgId}, r.topic_id, r.related_id, 'related', 'computed', r.score
          FROM unnest(${rows.map((r) => r.topicId)}::text[], ${rows.map((r) => r.relatedId)}::text[], ${rows.map((r) => r.score)}::float8[])
            AS r(topic_id, related_id, score)
          ON CONFLICT (org_id, topic_id, related_topic_id, kind) DO NOTHING`
      })

    const indexChapters = (orgId: string, contentId: string) => searchIndex.indexChapters(orgId, [contentId])
    const indexTopics = (orgId: string, topicIds: ReadonlyArray<string>) => searchIndex.indexTopics(orgId, topicIds)

    return { relatedTopics, replaceRelated, indexChapters, indexTopics } as const
  }),
  dependencies: [SearchIndexRepo.Default]
}) {}
