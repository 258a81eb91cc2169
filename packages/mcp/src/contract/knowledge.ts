import { RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import { ItemId, SpaceId, TopicId } from "@tks/domain/ids"
import { Category, ItemDetail, Space, SpaceDetail, SpaceListParams, TopicDetail } from "@tks/domain/knowledge-graph"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { SearchParams, SearchResult } from "@tks/domain/search"
import { IdInput, inputOf, NoInput, tool, ToolAuthorization } from "./tool.js"

/** The knowledge graph: search, and categories > spaces > topics > items with their evidence. */
export class KnowledgeTools extends RpcGroup.make(
  tool("search_service", {
    title: "Search the knowledge base",
    description:
      "Full-text search over the topics and content chapters the caller can read. Returns one ranked page (no cursor): each result is tagged `type` topic or chapter, with a highlighted snippet, a relevance score and a web link. Use it first to find the ids that the get_* tools take. `types` narrows to topic and/or chapter (default both); `limit` is 1 to 50 (default 10). Then get_topic for a topic result, get_content_text for a chapter result.",
    payload: inputOf(SearchParams),
    success: List(SearchResult),
    policy: policies.search.query
  }),
  tool("get_topic", {
    title: "Read a topic",
    description:
      "One topic of the knowledge graph: its description, its space and category, its items (processes, policies, facts, as a tree in their source's order: a procedure's steps keep their numbered order, each item carries its position) and its related and prerequisite topics. Not found when the topic is archived, superseded or in a space the caller cannot read. For one item's source evidence use get_item; to find topics, search_service.",
    payload: Schema.Struct({ topicId: IdInput(TopicId, "The topic's id, e.g. from search_service or get_space") }),
    success: TopicDetail,
    policy: policies.knowledge.topic
  }),
  tool("get_item", {
    title: "Read an item",
    description:
      "One item (a process, policy or fact) with its position among its siblings, its child items in their order and its source evidence: the quote, the video timestamps or document character range it came from, a confidence from 0 to 1, and links to the source content. For the items around it use get_topic.",
    payload: Schema.Struct({ itemId: IdInput(ItemId, "The item's id, e.g. from get_topic") }),
    success: ItemDetail,
    policy: policies.knowledge.item
  }),
  tool("list_categories", {
    title: "List the categories",
    description:
      "The organization's 14 fixed knowledge categories (strategy, sales, marketing, ... procurement) with their slugs and how many readable spaces each holds. Not paginated. To go further down, list_spaces with a categorySlug.",
    payload: NoInput,
    success: List(Category),
    policy: policies.knowledge.categories
  }),
  tool("list_spaces", {
    title: "List spaces",
    description:
      "The spaces the caller can read, optionally of one category (`categorySlug`, one of the 14 slugs; any other value is an error). Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). For a space's topics use get_space; to find a topic by what it is about, search_service.",
    payload: inputOf(SpaceListParams),
    success: Page(Space),
    policy: policies.knowledge.spaces
  }),
  tool("get_space", {
    title: "Read a space",
    description:
      "One space with its category, visibility and topics, limited to the live topics of the current graph that the caller can see, each with its item count. For a topic's items use get_topic.",
    payload: Schema.Struct({ spaceId: IdInput(SpaceId, "The space's id, e.g. from list_spaces") }),
    success: SpaceDetail,
    policy: policies.knowledge.space
  })
).middleware(ToolAuthorization) {}
