import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"

/**
 * The full-text index (migration 0003): `search_vector` of chapters and
 * topics, in the `english` configuration, weighted so a match in a headline
 * or name outranks one in the text. Written by the processing pipeline's
 * indexing stage and by the fixture import, never generated, so
 * `indexing_status` reports work actually done.
 *
 * - chapter: headline (A), text (B);
 * - topic: name (A), description (B), its live items' names and bodies (C).
 */
export class SearchIndexRepo extends Effect.Service<SearchIndexRepo>()("@tks/core/SearchIndexRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const chapterVector = sql`setweight(to_tsvector('english', coalesce(c.headline, '')), 'A') || setweight(to_tsvector('english', c.text), 'B')`

    const topicVector = sql`setweight(to_tsvector('english', t.name), 'A')
      || setweight(to_tsvector('english', coalesce(t.description, '')), 'B')
      || setweight(to_tsvector('english', coalesce((
        SELECT string_agg(i.name || ' ' || coalesce(i.body, ''), ' ' ORDER BY i.id)
        FROM items i WHERE i.org_id = t.org_id AND i.topic_id = t.id AND i.state = 'live'), '')), 'C')`

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

    /** Every chapter and topic of an organization (after an import). */
    const indexOrganization = (orgId: OrganizationId | string) =>
      Effect.all([
        sql`UPDATE chapters c SET search_vector = ${chapterVector} WHERE c.org_id = ${orgId}`,
        sql`UPDATE topics t SET search_vector = ${topicVector} WHERE t.org_id = ${orgId}`
      ], { discard: true })

    return { indexChapters, indexTopics, indexOrganization } as const
  })
}) {}
