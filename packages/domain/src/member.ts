import { Schema } from "effect"
import { EntityRef, Timestamp } from "./common.js"
import { TeamId, UserId } from "./ids.js"
import { PageParams } from "./page-params.js"
import { BooleanFromQuery } from "./pagination.js"
import { MemberStatus, OrgRole, TeamRole } from "./roles.js"

export const MemberTeam = Schema.Struct({ id: Schema.String, name: Schema.String, role: TeamRole })

/** A manager: another member, or one recorded without an account (then id, name and status are null). */
export const ManagerRef = Schema.Struct({
  id: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  status: Schema.NullOr(MemberStatus)
})
export type ManagerRef = typeof ManagerRef.Type

/** The four last fields are present for organization admins only. */
export const Member = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  status: MemberStatus,
  signedUp: Schema.Boolean,
  role: OrgRole,
  companyRoles: Schema.Array(EntityRef),
  teams: Schema.Array(MemberTeam),
  phone: Schema.optional(Schema.NullOr(Schema.String)),
  directoryManaged: Schema.optional(Schema.Boolean),
  deactivatedAt: Schema.optional(Schema.NullOr(Timestamp)),
  reportsTo: Schema.optional(Schema.NullOr(ManagerRef))
}).annotations({ identifier: "Member" })
export type Member = typeof Member.Type

export const MemberStatusFilter = Schema.Literal("active", "deactivated", "all")
export type MemberStatusFilter = typeof MemberStatusFilter.Type

/** An invitation. It has no id. */
export const Invitation = Schema.Struct({
  name: Schema.String,
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  role: OrgRole,
  expiresAt: Timestamp,
  expired: Schema.Boolean
}).annotations({ identifier: "Invitation" })
export type Invitation = typeof Invitation.Type

/** A reporting line: a person and their manager. */
export const ReportingLine = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: MemberStatus,
  reportsTo: Schema.NullOr(ManagerRef)
}).annotations({ identifier: "ReportingLine" })
export type ReportingLine = typeof ReportingLine.Type

const statusParam = Schema.optional(
  MemberStatusFilter.annotations({ description: "active (default), deactivated or all" })
)

/** GET /v1/members parameters. */
export const MemberListParams = Schema.Struct({
  query: Schema.optional(Schema.String.annotations({ description: "Matches anywhere in name or email, case-insensitive" })),
  status: statusParam,
  teamId: Schema.optional(TeamId.annotations({ description: "Only members of this team; a team outside the organization is 400" })),
  noManager: Schema.optional(
    BooleanFromQuery.annotations({ description: "true lists only people with no manager; organization admins only" })
  ),
  ...PageParams.fields
})
export type MemberListParams = typeof MemberListParams.Type

/** GET /v1/reporting-lines parameters. */
export const ReportingLineParams = Schema.Struct({
  status: statusParam,
  noManager: Schema.optional(BooleanFromQuery.annotations({ description: "true lists only people with no manager" })),
  ...PageParams.fields
})
export type ReportingLineParams = typeof ReportingLineParams.Type

/** A member's id in the path. A plain string on the wire, never pattern checked: an id that is not ours is simply absent (404). */
export const MemberPath = Schema.Struct({ id: UserId })
