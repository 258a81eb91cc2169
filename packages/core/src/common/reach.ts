import type { SqlClient, Statement } from "@effect/sql"
import type { Access } from "@tks/domain/policy"

/**
 * Which people a caller reaches, as SQL: the one meaning of each `Reach`
 * (@tks/domain/policy) over people, for every service that resolves a
 * person named in a request (the assigning acts, a person's learning queue).
 * The reach is the one `authorize` computed from the person's role on this
 * call, so a team admin demoted since their token was issued reaches only
 * themself.
 *
 * - `organization`: everyone in the organization;
 * - `teams`: the people on the teams the caller administers (themself included);
 * - `reports`: the caller and everyone below them on the reporting line, at any depth;
 * - `self`, and `readable` (a reach over records the caller can read; of
 *   people, that is themself): the caller only.
 */

/** The teams the caller administers. */
export const administeredTeamIds = (access: Access): ReadonlyArray<string> =>
  access.actor.teams.filter((team) => team.role === "team-admin").map((team) => team.teamId)

/** The `users` row `alias` (of the caller's organization) is within the caller's reach. */
export const withinReach = (sql: SqlClient.SqlClient, access: Access, alias: string): Statement.Fragment => {
  const user = sql(alias)
  switch (access.reach) {
    case "organization":
      return sql`TRUE`
    case "teams":
      return sql`EXISTS (
        SELECT 1 FROM team_members reach_tm
        WHERE reach_tm.org_id = ${user}.org_id AND reach_tm.user_id = ${user}.id AND reach_tm.team_id = ANY(${[...administeredTeamIds(access)]}::text[]))`
    case "reports":
      return sql`(${user}.id = ${access.actor.userId} OR EXISTS (
        WITH RECURSIVE reach_line (manager_id) AS (
          SELECT ${user}.manager_id
          UNION
          SELECT reach_m.manager_id FROM reach_line JOIN users reach_m ON reach_m.org_id = ${user}.org_id AND reach_m.id = reach_line.manager_id
        )
        SELECT 1 FROM reach_line WHERE reach_line.manager_id = ${access.actor.userId}))`
    case "readable":
    case "self":
      return sql`${user}.id = ${access.actor.userId}`
  }
}
