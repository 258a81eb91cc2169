import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { itemLive } from "../knowledge/access.js"

/**
 * The full-text index (migration 0003): `search_vector` of chapters and
 * topics, in the `english` configuration, weighted so a match in a headline
 * or name outranks one in the text. Written by the processing pipeline's
 * indexing stage and by the fixture import, never generated, so
 * `indexing_status` reports work actually done.
 *
 * - chapter: headline (A), text (B);
 * - topic: name (A), description (B), the names and bodies of its items in
 *   the live graph (C; an item under an archived parent is not).
 */
const batchSize = 1_000
const chunks = <A>(all: ReadonlyArray<A>): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let at = 0; at < all.length; at += batchSize) out.push(all.slice(at, at + batchSize))
  return out
}

export class SearchIndexRepo extends Effect.Service<SearchIndexRepo>()("@tks/core/SearchIndexRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const chapterVector = sql`setweight(to_tsvector('english', coalesce(c.headline, '')), 'A') || setweight(to_tsvector('english', c.text), 'B')`

    const topicVector = sql`setweight(to_tsvector('english', t.name), 'A')
      || setweight(to_tsvector('english', coalesce(t.description, '')), 'B')
      || setweight(to_tsvector('english', coalesce((
        SELECT string_agg(i.name || ' ' || coalesce(i.body, ''), ' ' ORDER BY i.id)
        FROM items i WHERE i.org_id = t.org_id AND i.topic_id = t.id AND ${itemLive(sql, "i")}), '')), 'C')`

    /** The chapters of these content records. */
    const indexChapters = (orgId: OrganizationId | string, contentIds: ReadonlyArray<string>) =>
      contentIds.length === 0 ? Effect.void : sql`
        UPDATE chapters c SET search_vector = ${chapterVector}
        WHERE c.org_id = ${orgId} AND c.content_id = ANY(${[...contentIds]})`.pipe(Effect.asVoid)

    /** These topics. */
    const indexTopics = (orgId: OrganizationId | string, topicIds: ReadonlyArray<string>) =>
      topicIds.length === 0 ? Effect.void : sql`
        UPDATE topics t SET search_vector = ${topicVector}
        WHERE t.org_id = ${orgId} AND t.id = ANY(${[...topicIds]})`.pipe(Effect.asVoid)

    /**
     * Every chapter and topic of an organization (after an import), in
     * batches: one statement over a large library ran into the statement
     * timeout (20,000 records: 11 s on the embedded database).
     */
    const indexOrganization = (orgId: OrganizationId | string) =>
      Effect.gen(function*() {
        const content = yield* sql<{ id: string }>`SELECT id FROM content WHERE org_id = ${orgId} AND body IS NOT NULL ORDER BY id`
        const topics = yield* sql<{ id: string }>`SELECT id FROM topics WHERE org_id = ${orgId} ORDER BY id`
        yield* Effect.forEach(chunks(content.map((row) => row.id)), (ids) => indexChapters(orgId, ids), { discard: true })
        yield* Effect.forEach(chunks(topics.map((row) => row.id)), (ids) => indexTopics(orgId, ids), { discard: true })
      })

    return { topicVector, indexChapters, indexTopics, indexOrganization } as const
  })
}) {}
