import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { EntityDuties } from "@tks/core/duties/entity-duties"
import { asCaller } from "../as-caller.js"

export const DutiesHandlers = HttpApiBuilder.group(Api, "duties", (handlers) =>
  Effect.gen(function*() {
    const duties = yield* EntityDuties
    return handlers.handle("entity", ({ urlParams }) => asCaller((access) => duties.forEntity(access, urlParams)))
  }))
