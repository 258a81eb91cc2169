import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Teams } from "@tks/core/teams/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const TeamsHandlers = group(Api, "teams", (handlers) =>
  Effect.gen(function*() {
    const teams = yield* Teams
    return handlers.handle("list", ({ urlParams }) => asCaller((access) => teams.list(access, urlParams)))
  }))
