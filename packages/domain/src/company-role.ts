import { Schema } from "effect"
import { Count, EntityRef, Timestamp } from "./common.js"

/** SPEC 2.3. */
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
