import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CurrentActor } from "@tks/domain/actor"
import { Members } from "@tks/core/members/service"
import { withInfrastructureErrors } from "../infrastructure-errors.js"

export const MembersHandlers = HttpApiBuilder.group(Api, "members", (handlers) =>
  Effect.gen(function*() {
    const members = yield* Members
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => members.list(actor, urlParams)), withInfrastructureErrors))
      .handle("get", ({ path }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => members.get(actor, path.id)), withInfrastructureErrors))
      .handle("invitations", ({ urlParams }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => members.invitations(actor, urlParams)), withInfrastructureErrors))
      .handle("reportingLines", ({ urlParams }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => members.reportingLines(actor, urlParams)), withInfrastructureErrors))
  }))
