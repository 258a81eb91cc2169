import type { OrgRole, Scope, TeamRole } from "./roles.js"

/**
 * Who may do what (docs/domain.md, Permissions and scopes). Pure and total, so every transport asks
 * the same questions and the answers are tested once.
 */
export type Permission =
  | "user.read"
  | "organization.update"
  | "company-role.read"
  | "guide.create"
  | "video.create"
  | "content-review.create"
  | "content-review.read"
  | "quiz-result.review"
  | "pop-quiz.read-all"

export const organizationAdminRoles: ReadonlyArray<OrgRole> = ["owner", "admin", "billing-admin"]

export const isOrganizationAdmin = (role: OrgRole): boolean => organizationAdminRoles.includes(role)

const adminPermissions: ReadonlySet<Permission> = new Set<Permission>([
  "user.read",
  "organization.update",
  "company-role.read",
  "guide.create",
  "video.create",
  "content-review.create",
  "content-review.read",
  "quiz-result.review",
  "pop-quiz.read-all"
])

const rolePermissions: Record<OrgRole, ReadonlySet<Permission>> = {
  owner: adminPermissions,
  admin: adminPermissions,
  "billing-admin": adminPermissions,
  viewer: new Set<Permission>([
    "user.read",
    "company-role.read",
    "guide.create",
    "video.create",
    "content-review.create",
    "content-review.read"
  ]),
  external: new Set<Permission>()
}

export const hasPermission = (role: OrgRole, permission: Permission): boolean =>
  rolePermissions[role].has(permission)

/** The organization roles that hold a permission, in the order of `OrgRole`. */
export const rolesHolding = (permission: Permission): ReadonlyArray<OrgRole> =>
  (Object.keys(rolePermissions) as Array<OrgRole>).filter((role) => rolePermissions[role].has(permission))

/** The team memberships of the caller that matter to permission checks. */
export interface TeamMembership {
  readonly teamId: string
  readonly role: TeamRole
}

/**
 * Who may be granted a scope on a token. Only training:assign is
 * restricted (organization or team admins); the others are checked against
 * the person's permissions on every call instead.
 */
export const mayHoldScope = (
  role: OrgRole,
  teams: ReadonlyArray<TeamMembership>,
  scope: Scope
): boolean =>
  scope !== "training:assign" || isOrganizationAdmin(role) || teams.some((team) => team.role === "team-admin")
