import type { SqlClient, Statement } from "@effect/sql"
import { Forbidden } from "@tks/domain/errors"
import type { Access } from "@tks/domain/policy"

/**
 * The assigning acts' reach (docs/domain.md, Assigning training), as SQL: who a caller may assign to. An organization
 * admin reaches anyone in the organization, a team admin the people on the
 * teams they administer (themself included), anyone else themself. The
 * reach is the one `authorize` computed from the person's role on this call,
 * so a team admin demoted since their token was issued reaches only
 * themself.
 */
export const administeredTeamIds = (access: Access): ReadonlyArray<string> =>
  access.actor.teams.filter((team) => team.role === "team-admin").map((team) => team.teamId)

/** The `users` row `alias` is within the caller's reach. */
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
    case "self":
      return sql`${user}.id = ${access.actor.userId}`
  }
}

/** A few ids for a message, and how many more. */
export const idList = (ids: ReadonlyArray<string>): string => {
  const shown = ids.slice(0, 10).join(", ")
  return ids.length > 10 ? `${shown} and ${ids.length - 10} more` : shown
}

/** The 403 for people named outside the caller's reach; nothing is written for anyone. */
export const outsideReach = (access: Access, userIds: ReadonlyArray<string>) =>
  new Forbidden({
    message: access.reach === "teams"
      ? `You may assign only to people on the teams you administer; not on them: ${idList(userIds)}. Nothing was changed.`
      : `You may assign only to yourself; named: ${idList(userIds)}. Nothing was changed.`
  })
