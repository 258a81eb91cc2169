import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CompanyRoles } from "@tks/core/company-roles/service"
import { asCaller } from "../as-caller.js"

export const CompanyRolesHandlers = HttpApiBuilder.group(Api, "companyRoles", (handlers) =>
  Effect.gen(function*() {
    const roles = yield* CompanyRoles
    return handlers
      .handle("list", ({ urlParams }) => asCaller((actor) => roles.list(actor, urlParams)))
      .handle("get", ({ path }) => asCaller((actor) => roles.get(actor, path.id)))
      .handle("duties", ({ path, urlParams }) => asCaller((actor) => roles.listDuties(actor, path.id, urlParams)))
  }))
