import { RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import { CompanyRole, CompanyRoleDetail, CompanyRoleDutiesParams, CompanyRoleListParams } from "@tks/domain/company-role"
import { DutyRow } from "@tks/domain/duty"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { IdInput, inputOf, tool, ToolAuthorization } from "./tool.js"

const companyRoleId = IdInput("The company role's id, e.g. from list_company_roles")

/** The org chart: company roles, their curriculum, holders and duties. */
export class OrgChartTools extends RpcGroup.make(
  tool("list_company_roles", {
    title: "List company roles",
    description:
      "The organization's company roles (named positions in the org chart), alphabetically, with member counts and the role each reports to. Only for callers who can read the org chart (external accounts cannot). `query` matches the name case-insensitively. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50).",
    payload: inputOf(CompanyRoleListParams),
    success: Page(CompanyRole),
    policy: policies.companyRoles.list
  }),
  tool("get_company_role", {
    title: "Read a company role",
    description: "One company role with its training curriculum (lessons and topics the caller can read) and its current members.",
    payload: Schema.Struct({ companyRoleId }),
    success: CompanyRoleDetail,
    policy: policies.companyRoles.get
  }),
  tool("list_role_duties", {
    title: "List a company role's duties",
    description:
      "The RACI duties of a company role, one row per entity reached: a duty on a space or category expands to every descendant (with `inheritedFrom`), a duty on a topic reaches its items. Rows carry the advancement-path reach (`tierQualifier` and tier). Ordered by entity type then name; only entities the caller can read. `entityType` narrows to TOPIC, ITEM, SPACE or CATEGORY. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50).",
    payload: inputOf(Schema.Struct({ companyRoleId, ...CompanyRoleDutiesParams.fields })),
    success: Page(DutyRow),
    policy: policies.companyRoles.duties
  })
).middleware(ToolAuthorization) {}
