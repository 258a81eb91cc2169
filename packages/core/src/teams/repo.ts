import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface TeamRow {
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
      readonly orgId: string
      readonly memberOf: string | null
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
          ${input.after === null ? sql`` : sql`AND (t.sort_name, t.id) > (${input.after[0]}, ${input.after[1]})`}
        ORDER BY t.sort_name, t.id
        LIMIT ${input.limit + 1}`

    const exists = (orgId: string, teamId: string) =>
      sql<{ id: string }>`SELECT id FROM teams WHERE org_id = ${orgId} AND id = ${teamId}`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    return { page, exists } as const
  })
}) {}
