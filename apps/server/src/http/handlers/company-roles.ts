import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CompanyRoles } from "@tks/core/company-roles/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const CompanyRolesHandlers = group(Api, "companyRoles", (handlers) =>
  Effect.gen(function*() {
    const roles = yield* CompanyRoles
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => roles.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => roles.get(access, path.id)))
      .handle("duties", ({ path, urlParams }) => asCaller((access) => roles.listDuties(access, path.id, urlParams)))
  }))
