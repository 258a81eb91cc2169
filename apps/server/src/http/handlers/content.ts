import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { ContentLibrary } from "@tks/core/content/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const ContentHandlers = group(Api, "content", (handlers) =>
  Effect.gen(function*() {
    const library = yield* ContentLibrary
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => library.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => library.get(access, path.id)))
      .handle("text", ({ path }) => asCaller((access) => library.text(access, path.id)))
      .handle("knowledge", ({ path }) => asCaller((access) => library.knowledge(access, path.id)))
      .handle("usage", ({ path }) => asCaller((access) => library.usage(access, path.id)))
  }))
