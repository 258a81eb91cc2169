import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Administration } from "@tks/core/administration/service"
import { asCaller } from "../as-caller.js"

export const AdministrationHandlers = HttpApiBuilder.group(Api, "administration", (handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    return handlers
      .handle("findings", ({ urlParams }) => asCaller((actor) => administration.findings(actor, urlParams)))
      .handle("orgChartVerification", () => asCaller(administration.orgChartVerification))
      .handle("directorySync", () => asCaller(administration.directorySync))
      .handle("directoryEvents", ({ urlParams }) => asCaller((actor) => administration.directoryEvents(actor, urlParams)))
  }))
