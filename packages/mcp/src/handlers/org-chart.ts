import { Effect } from "effect"
import { CompanyRoles } from "@tks/core/company-roles/service"
import { CompanyRoleId } from "@tks/domain/ids"
import { OrgChartTools } from "../contract/org-chart.js"
import { asToolCaller } from "./as-tool-caller.js"

export const OrgChartToolsLive = OrgChartTools.toLayer(
  Effect.gen(function*() {
    const roles = yield* CompanyRoles
    return {
      list_company_roles: (input) => asToolCaller((access) => roles.list(access, input)),
      get_company_role: ({ companyRoleId }) => asToolCaller((access) => roles.get(access, CompanyRoleId.make(companyRoleId))),
      list_role_duties: ({ companyRoleId, ...params }) =>
        asToolCaller((access) => roles.listDuties(access, CompanyRoleId.make(companyRoleId), params))
    }
  })
)
