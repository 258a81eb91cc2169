import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { EntityDuties } from "@tks/core/duties/entity-duties"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const DutiesHandlers = group(Api, "duties", (handlers) =>
  Effect.gen(function*() {
    const duties = yield* EntityDuties
    return handlers.handle("entity", ({ urlParams }) => asCaller((access) => duties.forEntity(access, urlParams)))
  }))
