import { Effect } from "effect"
import type { AudienceRequest } from "@tks/domain/assigning"
import { Forbidden, unknownTeamId } from "@tks/domain/errors"
import type { Access } from "@tks/domain/policy"
import { administeredTeamIds } from "../common/reach.js"
import type { Audience, AssigningPeopleRepo, NamedPersonRow } from "./people-repo.js"
import { outsideReach } from "./reach.js"
import { cannotTakeLesson, personLeft, unknownUsers } from "./refusals.js"

/**
 * Who a request names, checked in this order before anything is written:
 * unknown people (400), then anyone outside the caller's reach (403, so
 * nothing changes for anyone named), then what the act needs of them.
 */

/** What the act needs of each named person besides being known and in reach. */
type NamedRule = "can-take-lesson" | "active" | "any"

export const admitNamed = (access: Access, rows: ReadonlyArray<NamedPersonRow>, rule: NamedRule) =>
  Effect.gen(function*() {
    const ids = (keep: (row: NamedPersonRow) => boolean) => rows.filter(keep).map((row) => row.named_id)
    const unknown = ids((row) => !row.known)
    if (unknown.length > 0) return yield* unknownUsers(unknown)
    const outside = ids((row) => !row.in_reach)
    if (outside.length > 0) return yield* outsideReach(access, outside)
    if (rule === "can-take-lesson") {
      const cannot = ids((row) => !row.can_take)
      if (cannot.length > 0) return yield* cannotTakeLesson(cannot)
    }
    if (rule === "active") {
      const left = ids((row) => !row.active)
      if (left.length > 0) return yield* personLeft(left[0]!)
    }
  })

/** The ids once each, in the order first given. */
export const distinct = (ids: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(ids)]

/**
 * The audience of an act (a lesson assignment, a pop quiz), checked:
 * everyone needs the organization's reach; teams must be teams of the
 * organization (400 Unknown teamId) that the caller administers unless they
 * reach the organization (403); people named in userIds go through
 * `admitNamed` with `named.rule` (for a lesson: able to take `named.lessonId`).
 */
export const admitAudience = (
  people: AssigningPeopleRepo,
  access: Access,
  body: AudienceRequest,
  named: { readonly lessonId: string | null; readonly rule: NamedRule }
) =>
  Effect.gen(function*() {
    const orgId = access.actor.organizationId
    switch (body.audience) {
      case "everyone": {
        if (access.reach !== "organization") {
          return yield* new Forbidden({ message: "Only organization admins may assign to everyone. Nothing was changed." })
        }
        return { _tag: "everyone" } as Audience
      }
      case "teams": {
        const teamIds = distinct(body.teamIds ?? [])
        const known = yield* people.knownTeams(orgId, teamIds)
        if (teamIds.some((id) => !known.has(id))) return yield* unknownTeamId()
        if (access.reach !== "organization") {
          const mine = new Set(administeredTeamIds(access))
          const others = teamIds.filter((id) => !mine.has(id))
          if (others.length > 0) {
            return yield* new Forbidden({
              message: `You may assign only to teams you administer; you do not administer ${others.join(", ")}. Nothing was changed.`
            })
          }
        }
        return { _tag: "teams", teamIds } as Audience
      }
      case "users": {
        const userIds = distinct(body.userIds ?? [])
        yield* admitNamed(access, yield* people.named(access, userIds, named.lessonId), named.rule)
        return { _tag: "users", userIds } as Audience
      }
    }
  })
