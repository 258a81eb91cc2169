import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CurrentActor } from "@tks/domain/actor"
import { Administration } from "@tks/core/administration/service"
import { withInfrastructureErrors } from "../infrastructure-errors.js"

export const AdministrationHandlers = HttpApiBuilder.group(Api, "administration", (handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    return handlers
      .handle("findings", ({ urlParams }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => administration.findings(actor, urlParams)), withInfrastructureErrors))
      .handle("orgChartVerification", () =>
        CurrentActor.pipe(Effect.flatMap(administration.orgChartVerification), withInfrastructureErrors))
      .handle("directorySync", () =>
        CurrentActor.pipe(Effect.flatMap(administration.directorySync), withInfrastructureErrors))
      .handle("directoryEvents", ({ urlParams }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => administration.directoryEvents(actor, urlParams)), withInfrastructureErrors))
  }))
