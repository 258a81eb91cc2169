import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { CategorySlug, ItemKind } from "@tks/domain/knowledge"
import type { TopicRelation } from "@tks/domain/knowledge-graph"
import type { OrganizationId } from "@tks/domain/ids"
import type { Visibility } from "@tks/domain/roles"
import { byName } from "../common/keyset.js"
import { containsPattern } from "../common/text-search.js"
import { type Reader, spaceVisible, topicVisible } from "./access.js"

/**
 * The graph reads (categories, spaces, topics, items). Every statement stays
 * in one organization and keeps to what `reader` can read in the live graph
 * (knowledge/access.ts). Name order is `lower(name) COLLATE "C"` then id,
 * the `sort_name` of the other name-ordered tables, computed here because
 * spaces and topics have no such column. Items keep their source's order
 * (`position`), name breaking ties.
 */

export interface CategoryRow {
  readonly id: string
  readonly slug: CategorySlug
  readonly name: string
  readonly space_count: number
  readonly topic_count: number
}

export interface SpaceRow {
  readonly id: string
  readonly name: string
  readonly sort_name: string
  readonly description: string | null
  readonly visibility: Visibility
  readonly category_id: string
  readonly category_slug: CategorySlug
  readonly category_name: string
  readonly topic_count: number
}

export interface TopicRow {
  readonly id: string
  readonly name: string
  readonly sort_name: string
  readonly slug: string
  readonly description: string | null
  readonly space_id: string
  readonly space_name: string
  readonly category_id: string
  readonly category_slug: CategorySlug
  readonly category_name: string
  readonly item_count: number
}

interface SpaceTopicRow {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly itemCount: number
}

export interface ItemNodeRow {
  readonly id: string
  readonly parentId: string | null
  readonly position: number
  readonly kind: ItemKind
  readonly name: string
  readonly body: string | null
}

interface TopicDetailRow extends TopicRow {
  /** Every live item of the topic (below live parents only): each parent's children come in their order (position, then name). */
  readonly items: ReadonlyArray<ItemNodeRow>
  readonly related: ReadonlyArray<{ readonly id: string; readonly name: string; readonly relation: TopicRelation }>
}

export class KnowledgeGraphRepo extends Effect.Service<KnowledgeGraphRepo>()("@tks/core/KnowledgeGraphRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const nameOrder = (alias: string) => sql`lower(${sql(alias)}.name) COLLATE "C"`

    /**
     * CTEs `kg_dead` and `kg_counts` (topic_id, item_count): how many items of
     * the topics in the CTE `topics` (its `id` column) are in the live graph.
     * Those are the live items that are not below an archived or superseded
     * one, so the recursion walks down from the few records out of the graph
     * (`kg_dead`: them and everything below them), not through every item: the
     * planner prices a recursion by ten rounds of its first step, and starting
     * from every item priced a 50-topic page past PostgreSQL's JIT threshold.
     */
    const liveItemCounts = (orgId: OrganizationId, topics: string): Fragment => sql`
      kg_dead AS (
        SELECT i.id, i.state FROM ${sql(topics)} kg_t JOIN items i
          ON i.org_id = ${orgId} AND i.topic_id = kg_t.id AND i.state <> 'live'
        UNION
        -- One index lookup per parent (LATERAL ... OFFSET 0), never a hash of the whole items table.
        SELECT i.id, i.state FROM kg_dead CROSS JOIN LATERAL (
          SELECT i.id, i.state FROM items i WHERE i.org_id = ${orgId} AND i.parent_item_id = kg_dead.id OFFSET 0
        ) i
      ),
      kg_counts AS (
        SELECT i.topic_id, count(*)::int AS item_count
        FROM ${sql(topics)} kg_t JOIN items i ON i.org_id = ${orgId} AND i.topic_id = kg_t.id AND i.state = 'live'
        WHERE NOT EXISTS (SELECT 1 FROM kg_dead WHERE kg_dead.id = i.id)
        GROUP BY i.topic_id
      )`

    const categoryOf = (orgId: OrganizationId, slug: CategorySlug | null) =>
      slug === null ? sql`` : sql`AND s.category_id = (SELECT kg_c.id FROM categories kg_c WHERE kg_c.org_id = ${orgId} AND kg_c.slug = ${slug})`

    /** The categories (all, or the one with `id`) in display order, with the live spaces and topics `reader` can read in each. */
    const categories = (orgId: OrganizationId, reader: Reader, id: string | null) =>
      sql<CategoryRow>`
        WITH visible AS (
          SELECT s.id, s.category_id FROM spaces s WHERE s.org_id = ${orgId} AND ${spaceVisible(sql, reader, "s")}
        ), counts AS (
          SELECT v.category_id, count(DISTINCT v.id)::int AS space_count, count(t.id)::int AS topic_count
          FROM visible v LEFT JOIN topics t ON t.org_id = ${orgId} AND t.space_id = v.id AND t.state = 'live'
          GROUP BY v.category_id
        )
        SELECT c.id, c.slug, c.name, COALESCE(n.space_count, 0) AS space_count, COALESCE(n.topic_count, 0) AS topic_count
        FROM categories c LEFT JOIN counts n ON n.category_id = c.id
        WHERE c.org_id = ${orgId} ${id === null ? sql`` : sql`AND c.id = ${id}`}
        ORDER BY c.position`

    /** Live spaces `reader` can read, by name: a page after `after`, or (limit null) all of them. */
    const spaces = (input: {
      readonly orgId: OrganizationId
      readonly reader: Reader
      readonly categorySlug: CategorySlug | null
      readonly categoryId: string | null
      readonly spaceId: string | null
      readonly after: readonly [string, string] | null
      readonly limit: number | null
    }) =>
      sql<SpaceRow>`
        WITH page AS (
          SELECT s.* FROM (
            SELECT s.org_id, s.id, s.name, s.description, s.visibility, s.category_id, ${nameOrder("s")} AS sort_name
            FROM spaces s
            WHERE s.org_id = ${input.orgId} AND ${spaceVisible(sql, input.reader, "s")}
              ${categoryOf(input.orgId, input.categorySlug)}
              ${input.categoryId === null ? sql`` : sql`AND s.category_id = ${input.categoryId}`}
              ${input.spaceId === null ? sql`` : sql`AND s.id = ${input.spaceId}`}
          ) s
          WHERE TRUE ${byName.after(sql, "s", input.after)}
          ORDER BY s.sort_name, s.id
          ${input.limit === null ? sql`` : sql`LIMIT ${input.limit}`}
        )
        SELECT p.id, p.name, p.sort_name, p.description, p.visibility,
          c.id AS category_id, c.slug AS category_slug, c.name AS category_name,
          (SELECT count(*)::int FROM topics t WHERE t.org_id = p.org_id AND t.space_id = p.id AND t.state = 'live') AS topic_count
        FROM page p JOIN categories c ON c.org_id = p.org_id AND c.id = p.category_id
        ORDER BY p.sort_name, p.id`

    /** The live topics of a space (one `reader` can read, checked by the caller), by name, with their live item counts. */
    const spaceTopics = (orgId: OrganizationId, spaceId: string) =>
      sql<SpaceTopicRow>`
        WITH RECURSIVE page AS MATERIALIZED (
          SELECT t.id, t.name, t.slug, ${nameOrder("t")} AS sort_name FROM topics t
          WHERE t.org_id = ${orgId} AND t.space_id = ${spaceId} AND t.state = 'live'
        ), ${liveItemCounts(orgId, "page")}
        SELECT p.id, p.name, p.slug, COALESCE(n.item_count, 0) AS "itemCount"
        FROM page p LEFT JOIN kg_counts n ON n.topic_id = p.id
        ORDER BY p.sort_name, p.id`

    const topicColumns = sql`p.id, p.name, ${nameOrder("p")} AS sort_name, p.slug, p.description,
      s.id AS space_id, s.name AS space_name, c.id AS category_id, c.slug AS category_slug, c.name AS category_name,
      COALESCE(n.item_count, 0) AS item_count`

    /** Live topics `reader` can read, by name, narrowed by space, category and a part of the name. */
    const topicsPage = (input: {
      readonly orgId: OrganizationId
      readonly reader: Reader
      readonly spaceId: string | null
      readonly categorySlug: CategorySlug | null
      readonly query: string | null
      readonly after: readonly [string, string] | null
      readonly limit: number
    }) =>
      sql<TopicRow>`
        WITH RECURSIVE page AS MATERIALIZED (
          SELECT t.* FROM (
            SELECT t.org_id, t.id, t.name, t.slug, t.description, t.space_id, ${nameOrder("t")} AS sort_name
            FROM topics t JOIN spaces s ON s.org_id = t.org_id AND s.id = t.space_id
            WHERE t.org_id = ${input.orgId} AND t.state = 'live' AND ${spaceVisible(sql, input.reader, "s")}
              ${input.spaceId === null ? sql`` : sql`AND t.space_id = ${input.spaceId}`}
              ${categoryOf(input.orgId, input.categorySlug)}
              ${input.query === null ? sql`` : sql`AND lower(t.name) LIKE lower(${containsPattern(input.query)}) ESCAPE '\\'`}
          ) t
          WHERE TRUE ${byName.after(sql, "t", input.after)}
          ORDER BY t.sort_name, t.id
          LIMIT ${input.limit}
        ), ${liveItemCounts(input.orgId, "page")}
        SELECT ${topicColumns}
        FROM page p
        LEFT JOIN kg_counts n ON n.topic_id = p.id
        JOIN spaces s ON s.org_id = p.org_id AND s.id = p.space_id
        JOIN categories c ON c.org_id = s.org_id AND c.id = s.category_id
        ORDER BY p.sort_name, p.id`

    /** One live topic `reader` can read, with its live item tree and its readable prerequisites and related topics. */
    const topic = (orgId: OrganizationId, reader: Reader, topicId: string) =>
      sql<TopicDetailRow>`
        WITH RECURSIVE page AS MATERIALIZED (
          SELECT p.id FROM topics p JOIN spaces s ON s.org_id = p.org_id AND s.id = p.space_id
          WHERE p.org_id = ${orgId} AND p.id = ${topicId} AND p.state = 'live' AND ${spaceVisible(sql, reader, "s")}
        ), ${liveItemCounts(orgId, "page")}
        SELECT ${topicColumns},
          COALESCE((
            WITH RECURSIVE tree AS (
              SELECT i.id, i.parent_item_id, i.position, i.kind, i.name, i.body FROM items i
              WHERE i.org_id = p.org_id AND i.topic_id = p.id AND i.parent_item_id IS NULL AND i.state = 'live'
              UNION ALL
              SELECT i.id, i.parent_item_id, i.position, i.kind, i.name, i.body FROM tree JOIN items i
                ON i.org_id = p.org_id AND i.parent_item_id = tree.id AND i.state = 'live'
            )
            SELECT json_agg(json_build_object('id', tree.id, 'parentId', tree.parent_item_id, 'position', tree.position,
              'kind', tree.kind, 'name', tree.name, 'body', tree.body) ORDER BY tree.position, ${nameOrder("tree")}, tree.id)
            FROM tree
          ), '[]') AS items,
          COALESCE((
            SELECT json_agg(json_build_object('id', rt.id, 'name', rt.name, 'relation', r.kind)
              ORDER BY CASE r.kind WHEN 'prerequisite' THEN 0 ELSE 1 END, r.score DESC NULLS LAST, ${nameOrder("rt")}, rt.id)
            FROM topic_relations r JOIN topics rt ON rt.org_id = r.org_id AND rt.id = r.related_topic_id
            WHERE r.org_id = p.org_id AND r.topic_id = p.id AND ${topicVisible(sql, reader, "rt")}
          ), '[]') AS related
        FROM page JOIN topics p ON p.org_id = ${orgId} AND p.id = page.id
        LEFT JOIN kg_counts n ON n.topic_id = p.id
        JOIN spaces s ON s.org_id = p.org_id AND s.id = p.space_id
        JOIN categories c ON c.org_id = s.org_id AND c.id = s.category_id`.pipe(
        Effect.map((rows) => rows[0])
      )

    return { categories, spaces, spaceTopics, topicsPage, topic } as const
  })
}) {}
