import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Narration } from "@tks/core/narration/service"
import { asCaller } from "../as-caller.js"
import { withAllowanceHeaders } from "../rate-limit.js"
import { group } from "../wire-answers.js"

export const NarrationHandlers = group(Api, "narration", (handlers) =>
  Effect.gen(function*() {
    const narration = yield* Narration
    return handlers
      .handle("synthesize", ({ payload }) => asCaller((access) => withAllowanceHeaders(narration.synthesize(access, payload))))
      .handle("usage", () => asCaller((access) => narration.usage(access)))
  }))
