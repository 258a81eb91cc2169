import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { policies } from "@tks/domain/policies"
import { CompanyRoles } from "../../src/company-roles/service.js"
import { MemberProgressList } from "../../src/members/progress.js"
import { Members } from "../../src/members/service.js"
import type { OrgFixtureInput } from "../../src/org-import/schema.js"
import type { Imported } from "./access.js"

/**
 * The kept member counts (migration 0016): per organization, its active,
 * deactivated and signed-up people; per company role, its current holders
 * who are active. Checked against a count of the rows themselves.
 */

/** Ann is the organization admin who reads the listings; Dee left; Cid never finished setting up; Fay's Ops holding ended. */
export const countsFixture = (name: string, domain: string): OrgFixtureInput => ({
  organization: { name },
  people: [
    { key: "ann", name: "Ann Admin", email: `ann@${domain}`, role: "admin" },
    { key: "bob", name: "Bob Viewer", email: `bob@${domain}`, role: "viewer", manager: "ann" },
    { key: "cid", name: "Cid New", email: `cid@${domain}`, role: "viewer", signedUp: false },
    { key: "dee", name: "Dee Gone", email: `dee@${domain}`, role: "viewer", status: "DEACTIVATED" },
    { key: "eve", name: "Eve Viewer", email: `eve@${domain}`, role: "viewer" },
    { key: "fay", name: "Fay Viewer", email: `fay@${domain}`, role: "billing-admin" }
  ],
  teams: [{ key: "crew", name: "Crew", members: [{ person: "ann" }, { person: "bob" }] }],
  companyRoles: [
    { key: "ops", name: "Ops", members: [{ person: "ann" }, { person: "bob" }, { person: "dee" }, { person: "fay", endedAt: "2020-01-01T00:00:00.000Z" }] },
    { key: "desk", name: "Desk", members: [{ person: "bob" }, { person: "eve" }, { person: "cid" }] },
    { key: "idle", name: "Idle" }
  ]
})

export interface Counts {
  readonly active: number
  readonly deactivated: number
  readonly signedUp: number
  /** Role id to its active current holders; roles with none are left out. */
  readonly roles: Readonly<Record<string, number>>
}

const withoutZeros = (rows: ReadonlyArray<{ readonly role_id: string; readonly members: number }>) =>
  Object.fromEntries(rows.filter((row) => row.members !== 0).map((row) => [row.role_id, row.members]))

/** Counted from users and role_members, as the listings counted before the kept counts. */
export const countedCounts = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [people] = yield* sql<{ active: number; deactivated: number; signed_up: number }>`
      SELECT count(*) FILTER (WHERE status = 'ACTIVE')::int AS active,
        count(*) FILTER (WHERE status = 'DEACTIVATED')::int AS deactivated,
        count(*) FILTER (WHERE signed_up)::int AS signed_up
      FROM users WHERE org_id = ${orgId}`
    const roles = yield* sql<{ role_id: string; members: number }>`
      SELECT rm.role_id, count(*)::int AS members
      FROM role_members rm JOIN users u ON u.org_id = rm.org_id AND u.id = rm.user_id
      WHERE rm.org_id = ${orgId} AND rm.ended_at IS NULL AND u.status = 'ACTIVE'
      GROUP BY rm.role_id`
    return {
      active: people?.active ?? 0,
      deactivated: people?.deactivated ?? 0,
      signedUp: people?.signed_up ?? 0,
      roles: withoutZeros(roles)
    } satisfies Counts
  }).pipe(Effect.orDie)

/** What the kept-count tables hold for the organization. */
export const keptCounts = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [people] = yield* sql<{ active: number; deactivated: number; signed_up: number }>`
      SELECT active, deactivated, signed_up FROM member_counts WHERE org_id = ${orgId}`
    const roles = yield* sql<{ role_id: string; members: number }>`
      SELECT role_id, members FROM company_role_member_counts WHERE org_id = ${orgId}`
    return {
      active: people?.active ?? 0,
      deactivated: people?.deactivated ?? 0,
      signedUp: people?.signed_up ?? 0,
      roles: withoutZeros(roles)
    } satisfies Counts
  }).pipe(Effect.orDie)

/** The totals and member counts the listings answer, read as `admin` of `org`. */
export const listedCounts = (org: Imported, admin: string) =>
  Effect.gen(function*() {
    const members = yield* Members
    const progress = yield* MemberProgressList
    const roles = yield* CompanyRoles
    const access = org.access(admin, policies.members.list)
    const total = (status: "active" | "deactivated" | "all") => Effect.map(members.list(access, { status }), (page) => page.total)
    const listed = yield* roles.list(org.access(admin, policies.companyRoles.list), { limit: 100 })
    const lines = org.access(admin, policies.members.reportingLines)
    return {
      active: yield* total("active"),
      deactivated: yield* total("deactivated"),
      all: yield* total("all"),
      reportingLines: (yield* members.reportingLines(lines, { status: "all" })).total,
      signedUp: (yield* progress.list(org.access(admin, policies.training.memberProgress), {})).total,
      roles: Object.fromEntries(listed.data.filter((role) => role.memberCount !== 0).map((role) => [role.id, role.memberCount]))
    }
  }).pipe(Effect.orDie)

/** The kept counts equal a count of the rows, and the listings answer them. */
export const expectExactCounts = (org: Imported, admin: string) =>
  Effect.gen(function*() {
    const counted = yield* countedCounts(org.organizationId)
    expect(yield* keptCounts(org.organizationId)).toEqual(counted)
    expect(yield* listedCounts(org, admin)).toEqual({
      active: counted.active,
      deactivated: counted.deactivated,
      all: counted.active + counted.deactivated,
      reportingLines: counted.active + counted.deactivated,
      signedUp: counted.signedUp,
      roles: counted.roles
    })
    return counted
  })
