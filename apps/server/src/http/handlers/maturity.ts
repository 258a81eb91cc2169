import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { KnowledgeMaturity } from "@tks/core/maturity/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const MaturityHandlers = group(Api, "maturity", (handlers) =>
  Effect.gen(function*() {
    const maturity = yield* KnowledgeMaturity
    return handlers
      .handle("get", ({ urlParams }) => asCaller((access) => maturity.get(access, urlParams)))
      .handle("categoryHealth", () => asCaller((access) => maturity.categoryHealth(access)))
  }))
