import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"

// Placeholder until the feature lands: every endpoint answers 500.
export const CompanyRolesHandlers = HttpApiBuilder.group(Api, "companyRoles", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", () => Effect.dieMessage("not implemented"))
      .handle("get", () => Effect.dieMessage("not implemented"))
      .handle("duties", () => Effect.dieMessage("not implemented"))
  ))
