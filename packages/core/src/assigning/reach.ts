import { Forbidden } from "@tks/domain/errors"
import type { Access } from "@tks/domain/policy"

/**
 * The assigning acts' reach (docs/domain.md, Assigning training): an
 * organization admin may assign to anyone in the organization, a team admin
 * to the people on the teams they administer (themself included), anyone
 * else to themself; which people that is, is common/reach.ts.
 */

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
