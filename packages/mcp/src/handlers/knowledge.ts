import { Effect } from "effect"
import { KnowledgeGraph } from "@tks/core/knowledge/service"
import { Search } from "@tks/core/search/service"
import { KnowledgeTools } from "../contract/knowledge.js"
import { asToolCaller } from "./as-tool-caller.js"

export const KnowledgeToolsLive = KnowledgeTools.toLayer(
  Effect.gen(function*() {
    const search = yield* Search
    const graph = yield* KnowledgeGraph
    return {
      search_service: (input) => asToolCaller((access) => search.search(access, input)),
      get_topic: ({ topicId }) => asToolCaller((access) => graph.getTopic(access, topicId)),
      get_item: ({ itemId }) => asToolCaller((access) => graph.getItem(access, itemId)),
      list_categories: () => asToolCaller((access) => graph.listCategories(access)),
      list_spaces: (input) => asToolCaller((access) => graph.listSpaces(access, input)),
      get_space: ({ spaceId }) => asToolCaller((access) => graph.getSpace(access, spaceId))
    }
  })
)
