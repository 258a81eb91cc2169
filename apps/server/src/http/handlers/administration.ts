import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"

// Placeholder until the feature lands: every endpoint answers 500.
export const AdministrationHandlers = HttpApiBuilder.group(Api, "administration", (handlers) =>
  Effect.succeed(
    handlers
      .handle("findings", () => Effect.dieMessage("not implemented"))
      .handle("orgChartVerification", () => Effect.dieMessage("not implemented"))
      .handle("directorySync", () => Effect.dieMessage("not implemented"))
      .handle("directoryEvents", () => Effect.dieMessage("not implemented"))
  ))
