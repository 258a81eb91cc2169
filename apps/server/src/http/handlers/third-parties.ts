import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { ThirdParties } from "@tks/core/third-parties/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const ThirdPartiesHandlers = group(Api, "thirdParties", (handlers) =>
  Effect.gen(function*() {
    const thirdParties = yield* ThirdParties
    return handlers
      .handle("list", () => asCaller((access) => thirdParties.list(access)))
      .handle("get", ({ path }) => asCaller((access) => thirdParties.get(access, path.id)))
      .handle("duties", ({ path, urlParams }) => asCaller((access) => thirdParties.duties(access, path.id, urlParams)))
  }))
