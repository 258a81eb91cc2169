import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { OrganizationId, TeamId, UserId } from "@tks/domain/ids"
import type { MemberStatusFilter } from "@tks/domain/member"
import type { MemberStatus, OrgRole, TeamRole } from "@tks/domain/roles"
import { byName, newestFirst } from "../common/keyset.js"
import { containsPattern } from "../common/text-search.js"
import { direct } from "@tks/db/direct"

/** The manager columns every member-like row carries (see `managerOf`). */
export interface ManagerColumns {
  readonly manager_id: string | null
  readonly manager_member_name: string | null
  readonly manager_member_status: MemberStatus | null
  /** A manager recorded by name and email without an account. */
  readonly manager_unlinked: boolean
}

export interface MemberRow extends ManagerColumns {
  readonly id: string
  readonly name: string
  readonly sort_name: string
  readonly email: string
  readonly status: MemberStatus
  readonly signed_up: boolean
  readonly org_role: OrgRole
  readonly phone: string | null
  readonly directory_managed: boolean
  readonly deactivated_at: Date | null
  readonly company_roles: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly teams: ReadonlyArray<{ readonly id: string; readonly name: string; readonly role: TeamRole }>
}

export interface ReportingLineRow extends ManagerColumns {
  readonly id: string
  readonly name: string
  readonly sort_name: string
  readonly status: MemberStatus
}

export interface InvitationRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly org_role: OrgRole
  readonly expires_at: Date
  readonly expired: boolean
  readonly created_us: string
}

/** The filters shared by the member and reporting-line listings. */
export interface PeopleFilter {
  readonly orgId: OrganizationId
  readonly status: MemberStatusFilter
  /** Only this person (a caller who may read only themself). */
  readonly onlyUserId: UserId | null
  readonly query: string | null
  readonly teamId: TeamId | null
  readonly noManager: boolean
  /** Only people who have finished setting up (member progress). */
  readonly signedUpOnly?: boolean
}

type Sql = SqlClient.SqlClient

/** The people a filter keeps, as a condition on users row `u`. */
export const peopleWhere = (sql: Sql, f: PeopleFilter): Fragment => {
  const none = sql``
  return sql`
      u.org_id = ${f.orgId}
      ${f.status === "active" ? sql`AND u.status = 'ACTIVE'` : f.status === "deactivated" ? sql`AND u.status = 'DEACTIVATED'` : none}
      ${f.signedUpOnly === true ? sql`AND u.signed_up` : none}
      ${f.onlyUserId === null ? none : sql`AND u.id = ${f.onlyUserId}`}
      ${
    f.query === null ? none : sql`AND (u.name ILIKE ${containsPattern(f.query)} ESCAPE '\\' OR u.email ILIKE ${
      containsPattern(f.query)
    } ESCAPE '\\')`
  }
      ${
    f.teamId === null
      ? none
      : sql`AND EXISTS (SELECT 1 FROM team_members tm WHERE tm.org_id = u.org_id AND tm.team_id = ${f.teamId} AND tm.user_id = u.id)`
  }
      ${f.noManager ? sql`AND u.manager_id IS NULL AND u.manager_email IS NULL AND u.manager_name IS NULL` : none}`
}

/** The company roles users row `alias` holds now, as a JSON array of {id, name} by name. */
export const heldCompanyRoles = (sql: Sql, alias: string): Fragment => {
  const user = sql(alias)
  return sql`COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.sort_name, r.id)
                  FROM role_members rm JOIN company_roles r ON r.org_id = rm.org_id AND r.id = rm.role_id
                 WHERE rm.org_id = ${user}.org_id AND rm.user_id = ${user}.id AND rm.ended_at IS NULL), '[]')`
}

export class MembersRepo extends Effect.Service<MembersRepo>()("@tks/core/MembersRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const where = (f: PeopleFilter): Fragment => peopleWhere(sql, f)

    const keptColumn = (f: PeopleFilter): Fragment | null => {
      if (f.onlyUserId !== null || f.query !== null || f.teamId !== null || f.noManager) return null
      if (f.signedUpOnly === true) return f.status === "all" ? sql`signed_up` : null
      return f.status === "active" ? sql`active` : f.status === "deactivated" ? sql`deactivated` : sql`active + deactivated`
    }
    const totalOf = (f: PeopleFilter): Fragment => {
      const kept = keptColumn(f)
      return kept === null
        ? sql`(SELECT count(*)::int FROM users u WHERE ${where(f)})`
        : sql`COALESCE((SELECT ${kept} FROM member_counts WHERE org_id = ${f.orgId}), 0)`
    }

    // The manager: a member (named even after leaving), or one recorded without an account.
    const managerColumns = sql`
      u.manager_id, m.name AS manager_member_name, m.status AS manager_member_status,
      (u.manager_id IS NULL AND (u.manager_email IS NOT NULL OR u.manager_name IS NOT NULL)) AS manager_unlinked`
    const managerJoin = sql`LEFT JOIN users m ON m.org_id = u.org_id AND m.id = u.manager_id`

    const memberColumns = sql`
      u.id, u.name, u.sort_name, u.email, u.status, u.signed_up, u.org_role, u.phone, u.deactivated_at,
      (u.directory_provisioned AND EXISTS (
        SELECT 1 FROM directory_connections dc WHERE dc.org_id = u.org_id AND dc.status <> 'DISCONNECTED')) AS directory_managed,
      ${heldCompanyRoles(sql, "u")} AS company_roles,
      COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'role', tm.role) ORDER BY t.sort_name, t.id)
                  FROM team_members tm JOIN teams t ON t.org_id = tm.org_id AND t.id = tm.team_id
                 WHERE tm.org_id = u.org_id AND tm.user_id = u.id), '[]') AS teams,
      ${managerColumns}`

    /** One page of members by name, with their roles, teams and manager, in one query. */
    const memberPage = (filter: PeopleFilter, key: readonly [string, string] | null, limit: number) =>
      direct(
        sql,
        sql<MemberRow>`
        SELECT ${memberColumns}
        FROM users u ${managerJoin}
        WHERE ${where(filter)} ${byName.after(sql, "u", key)}
        ORDER BY u.sort_name, u.id
        LIMIT ${limit}`
      )

    /** One person of the organization at any status. */
    const member = (orgId: OrganizationId, userId: UserId) =>
      sql<MemberRow>`
        SELECT ${memberColumns}
        FROM users u ${managerJoin}
        WHERE u.org_id = ${orgId} AND u.id = ${userId}`.pipe(Effect.map((rows) => rows[0]))

    /**
     * The size of the whole filtered listing, and whether `filter.teamId` is a
     * team of the organization (checked in the same round trip; true without one).
     * A listing narrowed by status or set-up alone reads the organization's
     * kept count (migration 0016); any other filter counts its rows.
     */
    const count = (filter: PeopleFilter) =>
      direct(sql, sql<{ total: number; team_known: boolean }>`
        SELECT ${totalOf(filter)} AS total,
          ${
        filter.teamId === null
          ? sql`true`
          : sql`EXISTS (SELECT 1 FROM teams t WHERE t.org_id = ${filter.orgId} AND t.id = ${filter.teamId})`
      } AS team_known`).pipe(Effect.map((rows) => rows[0] ?? { total: 0, team_known: false }))

    /** One page of reporting lines by name. */
    const reportingLinePage = (filter: PeopleFilter, key: readonly [string, string] | null, limit: number) =>
      sql<ReportingLineRow>`
        SELECT u.id, u.name, u.sort_name, u.status, ${managerColumns}
        FROM users u ${managerJoin}
        WHERE ${where(filter)} ${byName.after(sql, "u", key)}
        ORDER BY u.sort_name, u.id
        LIMIT ${limit}`

    /** Pending invitations, newest first. */
    const invitationPage = (orgId: OrganizationId, key: readonly [string, string] | null, limit: number) =>
      sql<InvitationRow>`
        SELECT i.id, i.name, i.email, i.phone, i.org_role, i.expires_at, i.expires_at <= now() AS expired,
          ${newestFirst.column(sql, "i")}
        FROM invitations i
        WHERE i.org_id = ${orgId} AND i.accepted_at IS NULL ${newestFirst.after(sql, "i", key)}
        ORDER BY i.created_at DESC, i.id DESC
        LIMIT ${limit}`

    return { memberPage, member, count, reportingLinePage, invitationPage } as const
  })
}) {}
