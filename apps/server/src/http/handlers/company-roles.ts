import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CurrentActor } from "@tks/domain/actor"
import { CompanyRoles } from "@tks/core/company-roles/service"
import { withInfrastructureErrors } from "../infrastructure-errors.js"

export const CompanyRolesHandlers = HttpApiBuilder.group(Api, "companyRoles", (handlers) =>
  Effect.gen(function*() {
    const roles = yield* CompanyRoles
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => roles.list(actor, urlParams)), withInfrastructureErrors))
      .handle("get", ({ path }) =>
        CurrentActor.pipe(Effect.flatMap((actor) => roles.get(actor, path.id)), withInfrastructureErrors))
      .handle("duties", ({ path, urlParams }) =>
        CurrentActor.pipe(
          Effect.flatMap((actor) => roles.listDuties(actor, path.id, urlParams)),
          withInfrastructureErrors
        ))
  }))
