import { Effect } from "effect"
import { CompanyRoles } from "@tks/core/company-roles/service"
import { EntityDuties } from "@tks/core/duties/entity-duties"
import { ThirdParties } from "@tks/core/third-parties/service"
import { OrgChartTools } from "../contract/org-chart.js"
import { asToolCaller } from "./as-tool-caller.js"

export const OrgChartToolsLive = OrgChartTools.toLayer(
  Effect.gen(function*() {
    const roles = yield* CompanyRoles
    const entityDuties = yield* EntityDuties
    const thirdParties = yield* ThirdParties
    return {
      list_company_roles: (input) => asToolCaller((access) => roles.list(access, input)),
      get_company_role: ({ companyRoleId }) => asToolCaller((access) => roles.get(access, companyRoleId)),
      list_role_duties: ({ companyRoleId, ...params }) =>
        asToolCaller((access) => roles.listDuties(access, companyRoleId, params)),
      get_duties: (input) => asToolCaller((access) => entityDuties.forEntity(access, input)),
      list_third_parties: () => asToolCaller((access) => thirdParties.list(access)),
      get_third_party: ({ thirdPartyId }) => asToolCaller((access) => thirdParties.get(access, thirdPartyId)),
      list_third_party_duties: ({ thirdPartyId, ...params }) =>
        asToolCaller((access) => thirdParties.duties(access, thirdPartyId, params))
    }
  })
)
