import type { Invitation, ManagerRef, Member, ReportingLine } from "@tks/domain/member"
import { iso, isoOrNull } from "../common/time.js"
import type { InvitationRow, ManagerColumns, MemberRow, ReportingLineRow } from "./repo.js"

/**
 * `reportsTo`: a member manager by id, name and status (still named
 * after leaving), a manager recorded without an account as all nulls, or null.
 */
export const managerOf = (row: ManagerColumns): ManagerRef | null =>
  row.manager_id !== null
    ? { id: row.manager_id, name: row.manager_member_name, status: row.manager_member_status }
    : row.manager_unlinked
    ? { id: null, name: null, status: null }
    : null

/**
 * A member row on the wire. `full` (organization admins) adds phone,
 * directoryManaged, deactivatedAt and reportsTo; otherwise those keys are absent.
 */
export const memberView = (row: MemberRow, full: boolean): Member => {
  const base = {
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    signedUp: row.signed_up,
    role: row.org_role,
    companyRoles: row.company_roles,
    teams: row.teams
  }
  // Added to the same object, not spread into a new one: this runs for every row of a page.
  return full
    ? Object.assign(base, {
      phone: row.phone,
      directoryManaged: row.directory_managed,
      deactivatedAt: isoOrNull(row.deactivated_at),
      reportsTo: managerOf(row)
    })
    : base
}

export const reportingLineView = (row: ReportingLineRow): ReportingLine => ({
  id: row.id,
  name: row.name,
  status: row.status,
  reportsTo: managerOf(row)
})

export const invitationView = (row: InvitationRow): Invitation => ({
  name: row.name,
  email: row.email,
  phone: row.phone,
  role: row.org_role,
  expiresAt: iso(row.expires_at),
  expired: row.expired
})
