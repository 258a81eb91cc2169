import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { KnowledgeGraph } from "@tks/core/knowledge/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const KnowledgeHandlers = group(Api, "knowledge", (handlers) =>
  Effect.gen(function*() {
    const graph = yield* KnowledgeGraph
    return handlers
      .handle("listCategories", () => asCaller((access) => graph.listCategories(access)))
      .handle("getCategory", ({ path }) => asCaller((access) => graph.getCategory(access, path.id)))
      .handle("listSpaces", ({ urlParams }) => asCaller((access) => graph.listSpaces(access, urlParams)))
      .handle("getSpace", ({ path }) => asCaller((access) => graph.getSpace(access, path.id)))
      .handle("listTopics", ({ urlParams }) => asCaller((access) => graph.listTopics(access, urlParams)))
      .handle("getTopic", ({ path }) => asCaller((access) => graph.getTopic(access, path.id)))
      .handle("getItem", ({ path }) => asCaller((access) => graph.getItem(access, path.id)))
  }))
