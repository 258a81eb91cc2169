import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { CategorySlug, ItemKind } from "@tks/domain/knowledge"
import type { TopicRelation } from "@tks/domain/knowledge-graph"
import type { OrganizationId } from "@tks/domain/ids"
import type { Visibility } from "@tks/domain/roles"
import { contentVisible } from "../search/content-visible.js"
import { byName } from "../shared/keyset.js"
import { containsPattern } from "../shared/text-search.js"
import { itemVisible, type Reader, spaceVisible, topicVisible } from "./access.js"

/**
 * The graph reads (categories, spaces, topics, items). Every statement stays
 * in one organization and keeps to what `reader` can read in the live graph
 * (knowledge/access.ts). Name order is `lower(name) COLLATE "C"` then id,
 * the `sort_name` of the other name-ordered tables, computed here because
 * spaces and topics have no such column.
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

export interface SpaceTopicRow {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly itemCount: number
}

export interface ItemNodeRow {
  readonly id: string
  readonly parentId: string | null
  readonly kind: ItemKind
  readonly name: string
  readonly body: string | null
}

export interface TopicDetailRow extends TopicRow {
  /** Every live item of the topic (below live parents only), by name: each parent's children come in name order. */
  readonly items: ReadonlyArray<ItemNodeRow>
  readonly related: ReadonlyArray<{ readonly id: string; readonly name: string; readonly relation: TopicRelation }>
}

export interface EvidenceRow {
  readonly id: string
  readonly contentId: string
  readonly contentTitle: string
  readonly contentType: "document" | "video" | "guide"
  readonly sourceUrl: string | null
  readonly quote: string | null
  readonly charStart: number | null
  readonly charEnd: number | null
  readonly timeStart: number | null
  readonly timeEnd: number | null
  readonly confidence: number
}

export interface ItemRow {
  readonly id: string
  readonly name: string
  readonly kind: ItemKind
  readonly body: string | null
  readonly parent_item_id: string | null
  readonly topic_id: string
  readonly topic_name: string
  readonly children: ReadonlyArray<{ readonly id: string; readonly name: string; readonly kind: ItemKind }>
  readonly evidence: ReadonlyArray<EvidenceRow>
}

export class KnowledgeGraphRepo extends Effect.Service<KnowledgeGraphRepo>()("@tks/core/KnowledgeGraphRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const nameOrder = (alias: string) => sql`lower(${sql(alias)}.name) COLLATE "C"`

    /** The live items of the topic `alias`: its live top-level items and, below a live item, its live children. */
    const liveItemCount = (alias: string): Fragment => {
      const topic = sql(alias)
      return sql`(WITH RECURSIVE kg_tree AS (
          SELECT kg_i.id FROM items kg_i
          WHERE kg_i.org_id = ${topic}.org_id AND kg_i.topic_id = ${topic}.id AND kg_i.parent_item_id IS NULL AND kg_i.state = 'live'
          UNION ALL
          SELECT kg_c.id FROM kg_tree JOIN items kg_c
            ON kg_c.org_id = ${topic}.org_id AND kg_c.parent_item_id = kg_tree.id AND kg_c.state = 'live'
        ) SELECT count(*)::int FROM kg_tree)`
    }

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
        SELECT t.id, t.name, t.slug, ${liveItemCount("t")} AS "itemCount"
        FROM topics t
        WHERE t.org_id = ${orgId} AND t.space_id = ${spaceId} AND t.state = 'live'
        ORDER BY ${nameOrder("t")}, t.id`

    const topicColumns = sql`p.id, p.name, ${nameOrder("p")} AS sort_name, p.slug, p.description,
      s.id AS space_id, s.name AS space_name, c.id AS category_id, c.slug AS category_slug, c.name AS category_name,
      ${liveItemCount("p")} AS item_count`

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
        WITH page AS (
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
        )
        SELECT ${topicColumns}
        FROM page p
        JOIN spaces s ON s.org_id = p.org_id AND s.id = p.space_id
        JOIN categories c ON c.org_id = s.org_id AND c.id = s.category_id
        ORDER BY p.sort_name, p.id`

    /** One live topic `reader` can read, with its live item tree and its readable prerequisites and related topics. */
    const topic = (orgId: OrganizationId, reader: Reader, topicId: string) =>
      sql<TopicDetailRow>`
        SELECT ${topicColumns},
          COALESCE((
            WITH RECURSIVE tree AS (
              SELECT i.id, i.parent_item_id, i.kind, i.name, i.body FROM items i
              WHERE i.org_id = p.org_id AND i.topic_id = p.id AND i.parent_item_id IS NULL AND i.state = 'live'
              UNION ALL
              SELECT i.id, i.parent_item_id, i.kind, i.name, i.body FROM tree JOIN items i
                ON i.org_id = p.org_id AND i.parent_item_id = tree.id AND i.state = 'live'
            )
            SELECT json_agg(json_build_object('id', tree.id, 'parentId', tree.parent_item_id, 'kind', tree.kind,
              'name', tree.name, 'body', tree.body) ORDER BY ${nameOrder("tree")}, tree.id)
            FROM tree
          ), '[]') AS items,
          COALESCE((
            SELECT json_agg(json_build_object('id', rt.id, 'name', rt.name, 'relation', r.kind)
              ORDER BY CASE r.kind WHEN 'prerequisite' THEN 0 ELSE 1 END, r.score DESC NULLS LAST, ${nameOrder("rt")}, rt.id)
            FROM topic_relations r JOIN topics rt ON rt.org_id = r.org_id AND rt.id = r.related_topic_id
            WHERE r.org_id = p.org_id AND r.topic_id = p.id AND ${topicVisible(sql, reader, "rt")}
          ), '[]') AS related
        FROM topics p
        JOIN spaces s ON s.org_id = p.org_id AND s.id = p.space_id
        JOIN categories c ON c.org_id = s.org_id AND c.id = s.category_id
        WHERE p.org_id = ${orgId} AND p.id = ${topicId} AND p.state = 'live' AND ${spaceVisible(sql, reader, "s")}`.pipe(
        Effect.map((rows) => rows[0])
      )

    /** One item in the live graph that `reader` can read, with its live children and its evidence from readable, published content. */
    const item = (orgId: OrganizationId, reader: Reader, itemId: string) =>
      sql<ItemRow>`
        SELECT i.id, i.name, i.kind, i.body, i.parent_item_id, t.id AS topic_id, t.name AS topic_name,
          COALESCE((
            SELECT json_agg(json_build_object('id', ch.id, 'name', ch.name, 'kind', ch.kind) ORDER BY ${nameOrder("ch")}, ch.id)
            FROM items ch WHERE ch.org_id = i.org_id AND ch.parent_item_id = i.id AND ch.state = 'live'
          ), '[]') AS children,
          COALESCE((
            SELECT json_agg(json_build_object('id', e.id, 'contentId', ct.id, 'contentTitle', ct.title, 'contentType', ct.type,
              'sourceUrl', ct.source_url, 'quote', e.quote, 'charStart', e.char_start, 'charEnd', e.char_end,
              'timeStart', e.time_start_seconds, 'timeEnd', e.time_end_seconds, 'confidence', e.confidence)
              ORDER BY e.confidence DESC, lower(ct.title) COLLATE "C", e.char_start, e.time_start_seconds, e.id)
            FROM evidence e JOIN content ct ON ct.org_id = e.org_id AND ct.id = e.content_id
            WHERE e.org_id = i.org_id AND e.item_id = i.id AND ${contentVisible(sql, reader, "ct")}
          ), '[]') AS evidence
        FROM items i JOIN topics t ON t.org_id = i.org_id AND t.id = i.topic_id
        WHERE i.org_id = ${orgId} AND i.id = ${itemId} AND ${itemVisible(sql, reader, "i")}`.pipe(Effect.map((rows) => rows[0]))

    return { categories, spaces, spaceTopics, topicsPage, topic, item } as const
  })
}) {}
