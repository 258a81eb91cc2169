import { Schema } from "effect"
import { Count, EntityRef, Timestamp } from "./common.js"
import { EntityType } from "./duty.js"
import { CompanyRoleId } from "./ids.js"
import { PageParams } from "./page-params.js"

/** A company role: a named position in the org chart, with the people holding it now. */
export const CompanyRole = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  memberCount: Count,
  parentRoleId: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations({ identifier: "CompanyRole" })
export type CompanyRole = typeof CompanyRole.Type

export const CurriculumEntry = Schema.Struct({
  type: Schema.Literal("lesson", "topic"),
  id: Schema.String,
  name: Schema.String
})
export type CurriculumEntry = typeof CurriculumEntry.Type

export const CompanyRoleDetail = Schema.Struct({
  ...CompanyRole.fields,
  curriculum: Schema.Array(CurriculumEntry),
  members: Schema.Array(EntityRef)
}).annotations({ identifier: "CompanyRoleDetail" })
export type CompanyRoleDetail = typeof CompanyRoleDetail.Type

/** GET /v1/company-roles parameters. */
export const CompanyRoleListParams = Schema.Struct({
  query: Schema.optional(Schema.String.annotations({ description: "Case-insensitive match on the role name" })),
  ...PageParams.fields
})
export type CompanyRoleListParams = typeof CompanyRoleListParams.Type

/** GET /v1/company-roles/{id}/duties parameters. */
export const CompanyRoleDutiesParams = Schema.Struct({
  entityType: Schema.optional(EntityType.annotations({ description: "Only duties on this kind of entity" })),
  ...PageParams.fields
})
export type CompanyRoleDutiesParams = typeof CompanyRoleDutiesParams.Type

/** A company role's id in the path. A plain string on the wire, never pattern checked: an id that is not ours is simply absent (404). */
export const CompanyRolePath = Schema.Struct({ id: CompanyRoleId })
