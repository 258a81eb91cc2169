import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Search } from "@tks/core/search/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const SearchHandlers = group(Api, "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search
    return handlers.handle("search", ({ urlParams }) => asCaller((access) => search.search(access, urlParams)))
  }))
