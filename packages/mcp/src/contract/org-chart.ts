import { RpcGroup } from "@effect/rpc"
import { Schema } from "effect"
import { CompanyRole, CompanyRoleDetail, CompanyRoleDutiesParams, CompanyRoleListParams } from "@tks/domain/company-role"
import { DutyRow, EntityDuties, EntityDutiesParams } from "@tks/domain/duty"
import { CompanyRoleId, ThirdPartyId } from "@tks/domain/ids"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { ThirdParty, ThirdPartyDetail, ThirdPartyDutiesParams } from "@tks/domain/third-party"
import { IdInput, inputOf, NoInput, tool, ToolAuthorization } from "./tool.js"

const companyRoleId = IdInput(CompanyRoleId, "The company role's id, e.g. from list_company_roles")
const thirdPartyId = IdInput(ThirdPartyId, "The third party's id, e.g. from list_third_parties")

/** The org chart: company roles, third parties, and the RACI duties tying them to the knowledge graph. */
export class OrgChartTools extends RpcGroup.make(
  tool("list_company_roles", {
    title: "List company roles",
    description:
      "The organization's company roles (named positions in the org chart), alphabetically, with member counts and the role each reports to. Only for callers who can read the org chart (external accounts cannot). `query` matches the name case-insensitively. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). For one role's curriculum and members use get_company_role; for what it is responsible for, list_role_duties.",
    payload: inputOf(CompanyRoleListParams),
    success: Page(CompanyRole),
    policy: policies.companyRoles.list
  }),
  tool("get_company_role", {
    title: "Read a company role",
    description: "One company role with its training curriculum (lessons and topics the caller can read) and its current members. For its RACI duties use list_role_duties.",
    payload: Schema.Struct({ companyRoleId }),
    success: CompanyRoleDetail,
    policy: policies.companyRoles.get
  }),
  tool("list_role_duties", {
    title: "List a company role's duties",
    description:
      "The RACI duties of a company role, one row per entity reached: a duty on a space or category expands to every descendant (with `inheritedFrom`), a duty on a topic reaches its items. Rows carry the advancement-path reach (`tierQualifier` and tier). Ordered by entity type then name; only entities the caller can read. `entityType` narrows to TOPIC, ITEM, SPACE or CATEGORY. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). To ask instead who holds duties on one topic, item, space or category, use get_duties.",
    payload: inputOf(Schema.Struct({ companyRoleId, ...CompanyRoleDutiesParams.fields })),
    success: Page(DutyRow),
    policy: policies.companyRoles.duties
  }),
  tool("get_duties", {
    title: "Read who holds duties on an entity",
    description:
      "Every RACI duty that reaches one entity of the knowledge graph (entityType TOPIC, ITEM, SPACE or CATEGORY, and its id): the duties on it and those inherited from its ancestors (an item's parent items, topic, space and category), each with its holder (a company role, team, person or third party), its RACI role, where it is inherited from (null when direct) and its advancement-tier reach. Not found when the entity is outside the live graph or the caller cannot read it. To start from the holder instead, use list_role_duties or list_third_party_duties.",
    payload: inputOf(EntityDutiesParams),
    success: EntityDuties,
    policy: policies.duties.entity
  }),
  tool("list_third_parties", {
    title: "List third parties",
    description:
      "The organization's third parties (vendors, auditors, partners that hold duties), by name, each with how many duties it holds. Not paginated. Only for callers who can read the org chart. For one use get_third_party; for its duties, list_third_party_duties.",
    payload: NoInput,
    success: List(ThirdParty),
    policy: policies.thirdParties.list
  }),
  tool("get_third_party", {
    title: "Read a third party",
    description: "One third party with its description and how many duties it holds per RACI role. For the duties themselves use list_third_party_duties.",
    payload: Schema.Struct({ thirdPartyId }),
    success: ThirdPartyDetail,
    policy: policies.thirdParties.get
  }),
  tool("list_third_party_duties", {
    title: "List a third party's duties",
    description:
      "The RACI duties of a third party, one row per entity reached (a duty on a space or category expands to its descendants, with `inheritedFrom`), ordered by entity type then name, only entities the caller can read. `entityType` narrows to TOPIC, ITEM, SPACE or CATEGORY. Paginated: pass `nextCursor` back as `cursor`; `limit` 1 to 100 (default 50). To start from an entity instead, use get_duties.",
    payload: inputOf(Schema.Struct({ thirdPartyId, ...ThirdPartyDutiesParams.fields })),
    success: Page(DutyRow),
    policy: policies.thirdParties.duties
  })
).middleware(ToolAuthorization) {}
