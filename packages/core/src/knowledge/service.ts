import { Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { CategoryId, ItemId, SpaceId, TopicId } from "@tks/domain/ids"
import {
  type Category,
  type CategoryDetail,
  type Evidence,
  evidenceLink,
  type ItemDetail,
  type Space,
  type SpaceDetail,
  type SpaceListParams,
  type Topic,
  type TopicDetail,
  type TopicItem,
  type TopicListParams
} from "@tks/domain/knowledge-graph"
import type { Access } from "@tks/domain/policy"
import { byName } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { readerOf } from "./access.js"
import { type CategoryRow, type ItemNodeRow, KnowledgeGraphRepo, type SpaceRow, type TopicRow } from "./graph-repo.js"
import { type EvidenceRow, KnowledgeItemRepo } from "./item-repo.js"
import { traced } from "../common/traced.js"

/**
 * The knowledge graph reads (HTTP, and the list_categories, list_spaces,
 * get_space, get_topic and get_item tools): whoever passes the policy (any member)
 * reads the live graph of their organization as far as its visibility lets
 * them; anything else is 404, as if absent.
 */
export class KnowledgeGraph extends Effect.Service<KnowledgeGraph>()("@tks/core/KnowledgeGraph", {
  effect: Effect.gen(function*() {
    const repo = yield* KnowledgeGraphRepo
    const items = yield* KnowledgeItemRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const categoryView = (row: CategoryRow): Category => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      spaceCount: row.space_count,
      topicCount: row.topic_count,
      url: links.category(row.id)
    })

    const spaceView = (row: SpaceRow): Space => ({
      id: row.id,
      name: row.name,
      description: row.description,
      category: { id: row.category_id, slug: row.category_slug, name: row.category_name },
      visibility: row.visibility,
      topicCount: row.topic_count,
      url: links.space(row.id)
    })

    const topicView = (row: TopicRow): Topic => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      description: row.description,
      space: { id: row.space_id, name: row.space_name },
      category: { id: row.category_id, slug: row.category_slug, name: row.category_name },
      itemCount: row.item_count,
      url: links.topic(row.id)
    })

    /** The item rows as trees: top-level items, each with its children (rows come in sibling order). */
    const itemTree = (rows: ReadonlyArray<ItemNodeRow>): ReadonlyArray<TopicItem> => {
      const childrenOf = new Map<string | null, Array<ItemNodeRow>>()
      for (const row of rows) {
        const siblings = childrenOf.get(row.parentId)
        if (siblings === undefined) childrenOf.set(row.parentId, [row])
        else siblings.push(row)
      }
      const build = (row: ItemNodeRow): TopicItem => ({
        id: row.id,
        name: row.name,
        position: row.position,
        kind: row.kind,
        body: row.body,
        url: links.item(row.id),
        children: (childrenOf.get(row.id) ?? []).map(build)
      })
      return (childrenOf.get(null) ?? []).map(build)
    }

    const evidenceView = (row: EvidenceRow): Evidence => {
      const range = row.charStart === null || row.charEnd === null ? null : { start: row.charStart, end: row.charEnd }
      const timeRange = row.timeStart === null || row.timeEnd === null
        ? null
        : { startSeconds: row.timeStart, endSeconds: row.timeEnd }
      return {
        id: row.id,
        content: { id: row.contentId, title: row.contentTitle, type: row.contentType },
        quote: row.quote,
        range,
        timeRange,
        confidence: row.confidence,
        link: evidenceLink({
          contentType: row.contentType,
          sourceUrl: row.sourceUrl,
          contentUrl: links.content(row.contentId),
          range,
          timeRange
        })
      }
    }

    /** GET /v1/categories: all 14, in display order, on one page. */
    const listCategories = traced("KnowledgeGraph.listCategories")(function*(access: Access) {
      const rows = yield* repo.categories(access.actor.organizationId, readerOf(access.actor), null)
      return { data: rows.map(categoryView), nextCursor: null }
    })

    /** GET /v1/categories/{id}: the category and its readable live spaces, by name. */
    const getCategory = traced("KnowledgeGraph.getCategory")(function*(access: Access, categoryId: CategoryId) {
      const orgId = access.actor.organizationId
      const reader = readerOf(access.actor)
      const [row] = yield* repo.categories(orgId, reader, categoryId)
      if (row === undefined) return yield* new NotFound({ message: "No such category" })
      const spaces = yield* repo.spaces({ orgId, reader, categorySlug: null, categoryId, spaceId: null, after: null, limit: null })
      const detail: CategoryDetail = { ...categoryView(row), spaces: spaces.map(spaceView) }
      return detail
    })

    /** GET /v1/spaces: readable live spaces by name, optionally of one category. */
    const listSpaces = traced("KnowledgeGraph.listSpaces")(function*(access: Access, params: SpaceListParams) {
      const { organizationId: orgId, userId } = access.actor
      const reader = readerOf(access.actor)
      const categorySlug = params.categorySlug ?? null
      return yield* pagination.page({
        // What is listed depends on what the caller can read, so the cursor is bound to the caller too.
        listing: ["spaces", orgId, userId, categorySlug],
        params,
        keyset: byName,
        rows: (after, limit) => repo.spaces({ orgId, reader, categorySlug, categoryId: null, spaceId: null, after, limit }),
        view: spaceView
      })
    })

    /** GET /v1/spaces/{id}: a readable live space with its live topics, by name. */
    const getSpace = traced("KnowledgeGraph.getSpace")(function*(access: Access, spaceId: SpaceId) {
      const orgId = access.actor.organizationId
      const reader = readerOf(access.actor)
      const [row] = yield* repo.spaces({ orgId, reader, categorySlug: null, categoryId: null, spaceId, after: null, limit: 1 })
      if (row === undefined) return yield* new NotFound({ message: "No such space" })
      const topics = yield* repo.spaceTopics(orgId, spaceId)
      const detail: SpaceDetail = {
        ...spaceView(row),
        topics: topics.map((topic) => ({ ...topic, url: links.topic(topic.id) }))
      }
      return detail
    })

    /** GET /v1/topics: readable live topics by name, narrowed by space, category and a part of the name. */
    const listTopics = traced("KnowledgeGraph.listTopics")(function*(access: Access, params: TopicListParams) {
      const { organizationId: orgId, userId } = access.actor
      const reader = readerOf(access.actor)
      const spaceId = params.spaceId ?? null
      const categorySlug = params.categorySlug ?? null
      const query = params.query === undefined || params.query === "" ? null : params.query
      return yield* pagination.page({
        listing: ["topics", orgId, userId, spaceId, categorySlug, query],
        params,
        keyset: byName,
        rows: (after, limit) => repo.topicsPage({ orgId, reader, spaceId, categorySlug, query, after, limit }),
        view: topicView
      })
    })

    /** GET /v1/topics/{id}: the topic, its live item tree and its readable prerequisites and related topics. */
    const getTopic = traced("KnowledgeGraph.getTopic")(function*(access: Access, topicId: TopicId) {
      const row = yield* repo.topic(access.actor.organizationId, readerOf(access.actor), topicId)
      if (row === undefined) return yield* new NotFound({ message: "No such topic" })
      const { category, description, id, name, slug, space, url } = topicView(row)
      const detail: TopicDetail = {
        id,
        name,
        slug,
        description,
        category,
        space,
        items: itemTree(row.items),
        relatedTopics: row.related.map((related) => ({ ...related, url: links.topic(related.id) })),
        url
      }
      return detail
    })

    /** GET /v1/items/{id}: the item, its live children and its evidence from content the caller can read. */
    const getItem = traced("KnowledgeGraph.getItem")(function*(access: Access, itemId: ItemId) {
      const row = yield* items.item(access.actor.organizationId, readerOf(access.actor), itemId)
      if (row === undefined) return yield* new NotFound({ message: "No such item" })
      const detail: ItemDetail = {
        id: row.id,
        name: row.name,
        kind: row.kind,
        body: row.body,
        topic: { id: row.topic_id, name: row.topic_name },
        parentItemId: row.parent_item_id,
        position: row.position,
        children: row.children.map((child) => ({ ...child, url: links.item(child.id) })),
        evidence: row.evidence.map(evidenceView),
        url: links.item(row.id)
      }
      return detail
    })

    return { listCategories, getCategory, listSpaces, getSpace, listTopics, getTopic, getItem } as const
  }),
  dependencies: [KnowledgeGraphRepo.Default, KnowledgeItemRepo.Default, Pagination.Default, Links.Default]
}) {}
