import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CurrentActor } from "@tks/domain/actor"
import { Teams } from "@tks/core/teams/service"
import { withInfrastructureErrors } from "../infrastructure-errors.js"

export const TeamsHandlers = HttpApiBuilder.group(Api, "teams", (handlers) =>
  Effect.gen(function*() {
    const teams = yield* Teams
    return handlers.handle("list", ({ urlParams }) =>
      CurrentActor.pipe(Effect.flatMap((actor) => teams.list(actor, urlParams)), withInfrastructureErrors))
  }))
