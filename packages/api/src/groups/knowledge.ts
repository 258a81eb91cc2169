import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import {
  Category,
  CategoryDetail,
  CategoryPath,
  ItemDetail,
  ItemPath,
  Space,
  SpaceDetail,
  SpaceListParams,
  SpacePath,
  Topic,
  TopicDetail,
  TopicListParams,
  TopicPath
} from "@tks/domain/knowledge-graph"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

const liveGraph =
  "Only the live graph: archived and superseded records, and everything under them, are left out. Only what the caller can read: a space's visibility (everyone, teams, admins) decides for its topics and items."

/** Categories, spaces, topics and items (the records duty rows link to). */
export class KnowledgeGroup extends HttpApiGroup.make("knowledge")
  .add(
    HttpApiEndpoint.get("listCategories", "/categories")
      .addSuccess(List(Category))
      .annotate(OpenApi.Summary, "List categories")
      .annotate(
        OpenApi.Description,
        `The organization's 14 categories in their display order, each with how many live spaces and topics the caller can read in it. One page; nextCursor is always null. ${liveGraph}`
      )
      .pipe(requires(policies.knowledge.categories))
  )
  .add(
    HttpApiEndpoint.get("getCategory", "/categories/:id")
      .setPath(CategoryPath)
      .addSuccess(CategoryDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a category")
      .annotate(OpenApi.Description, `The category and its spaces the caller can read, by name. ${liveGraph}`)
      .pipe(requires(policies.knowledge.categories))
  )
  .add(
    HttpApiEndpoint.get("listSpaces", "/spaces")
      .setUrlParams(SpaceListParams)
      .addSuccess(Page(Space))
      .annotate(OpenApi.Summary, "List spaces")
      .annotate(
        OpenApi.Description,
        `Spaces the caller can read, by name; categorySlug keeps one category's (an unknown slug is 400). ${liveGraph}`
      )
      .pipe(requires(policies.knowledge.spaces))
  )
  .add(
    HttpApiEndpoint.get("getSpace", "/spaces/:id")
      .setPath(SpacePath)
      .addSuccess(SpaceDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a space")
      .annotate(
        OpenApi.Description,
        `The space and its live topics, by name, each with its count of live items. 404 when the space is archived, superseded or not readable by the caller. ${liveGraph}`
      )
      .pipe(requires(policies.knowledge.space))
  )
  .add(
    HttpApiEndpoint.get("listTopics", "/topics")
      .setUrlParams(TopicListParams)
      .addSuccess(Page(Topic))
      .annotate(OpenApi.Summary, "List topics")
      .annotate(
        OpenApi.Description,
        `Topics the caller can read, by name; spaceId, categorySlug (an unknown slug is 400) and query (a case-insensitive part of the name) narrow the list. ${liveGraph}`
      )
      .pipe(requires(policies.knowledge.topics))
  )
  .add(
    HttpApiEndpoint.get("getTopic", "/topics/:id")
      .setPath(TopicPath)
      .addSuccess(TopicDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a topic")
      .annotate(
        OpenApi.Description,
        `The topic with its description, category and space, its live items as a tree (top-level items in their source's order, each with its child items nested in theirs: by position, then name), and its prerequisites and related topics. 404 when the topic, or its space, is out of the live graph or not readable by the caller. ${liveGraph}`
      )
      .pipe(requires(policies.knowledge.topic))
  )
  .add(
    HttpApiEndpoint.get("getItem", "/items/:id")
      .setPath(ItemPath)
      .addSuccess(ItemDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read an item")
      .annotate(
        OpenApi.Description,
        `The item with its place among its siblings (position), its live child items in their order (by position, then name) and its evidence: quote, character range of a document or time range of a video, confidence and a web link to the place. Evidence from content the caller cannot read, or that is not published, is left out. 404 when the item, a parent item, its topic or its space is out of the live graph, or the caller cannot read it. ${liveGraph}`
      )
      .pipe(requires(policies.knowledge.item))
  )
  .middleware(Authentication) {}
