import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Search } from "@tks/core/search/service"
import { asCaller } from "../as-caller.js"

export const SearchHandlers = HttpApiBuilder.group(Api, "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search
    return handlers.handle("search", ({ urlParams }) => asCaller((access) => search.search(access, urlParams)))
  }))
