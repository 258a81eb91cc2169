import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Teams } from "@tks/core/teams/service"
import { asCaller } from "../as-caller.js"

export const TeamsHandlers = HttpApiBuilder.group(Api, "teams", (handlers) =>
  Effect.gen(function*() {
    const teams = yield* Teams
    return handlers.handle("list", ({ urlParams }) => asCaller((access) => teams.list(access, urlParams)))
  }))
