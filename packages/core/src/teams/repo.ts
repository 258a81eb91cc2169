import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OrganizationId, UserId } from "@tks/domain/ids"
import { byName } from "../common/keyset.js"

interface TeamRow {
  readonly id: string
  readonly name: string
  readonly sort_name: string
  readonly member_count: number
}

export class TeamsRepo extends Effect.Service<TeamsRepo>()("@tks/core/TeamsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Teams by name; `memberOf` limits them to the teams that person is on. */
    const page = (input: {
      readonly orgId: OrganizationId
      readonly memberOf: UserId | null
      readonly after: readonly [string, string] | null
      readonly limit: number
    }) =>
      sql<TeamRow>`
        SELECT t.id, t.name, t.sort_name,
          (SELECT count(*)::int FROM team_members tm JOIN users u ON u.org_id = tm.org_id AND u.id = tm.user_id
            WHERE tm.org_id = t.org_id AND tm.team_id = t.id AND u.status = 'ACTIVE') AS member_count
        FROM teams t
        WHERE t.org_id = ${input.orgId}
          ${input.memberOf === null ? sql`` : sql`AND EXISTS (SELECT 1 FROM team_members m WHERE m.org_id = t.org_id AND m.team_id = t.id AND m.user_id = ${input.memberOf})`}
          ${byName.after(sql, "t", input.after)}
        ORDER BY t.sort_name, t.id
        LIMIT ${input.limit}`

    return { page } as const
  })
}) {}
