import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId, UserId } from "@tks/domain/ids"
import type { OrgRole, TeamRole } from "@tks/domain/roles"
import { direct } from "@tks/db/direct"

interface MeRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly org_id: string
  readonly org_name: string
  readonly org_role: OrgRole
  readonly teams: ReadonlyArray<{ readonly id: string; readonly name: string; readonly role: TeamRole }>
}

export class MeRepo extends Effect.Service<MeRepo>()("@tks/core/MeRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = (orgId: OrganizationId, userId: UserId) =>
      direct(sql, sql<MeRow>`
        SELECT u.id, u.name, u.email, o.id AS org_id, o.name AS org_name, u.org_role,
          COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'role', tm.role) ORDER BY t.sort_name, t.id)
                      FROM team_members tm JOIN teams t ON t.org_id = tm.org_id AND t.id = tm.team_id
                     WHERE tm.org_id = u.org_id AND tm.user_id = u.id), '[]') AS teams
        FROM users u JOIN organizations o ON o.id = u.org_id
        WHERE u.org_id = ${orgId} AND u.id = ${userId}`).pipe(Effect.map((rows) => rows[0]))
    return { find } as const
  })
}) {}
