import { Effect } from "effect"
import { NotFound, unknownTeamId } from "@tks/domain/errors"
import type { UserId } from "@tks/domain/ids"
import type { MemberListParams, ReportingLineParams } from "@tks/domain/member"
import type { PageParams } from "@tks/domain/page-params"
import { type Access, requireOrganizationReach } from "@tks/domain/policy"
import { byName, newestFirst } from "../common/keyset.js"
import { Pagination } from "../common/pagination.js"
import { MembersRepo, type PeopleFilter } from "./repo.js"
import { invitationView, memberView, reportingLineView } from "./views.js"
import { traced } from "../common/traced.js"

/**
 * Members (the user.read permission): a caller reaching the organization reads
 * everyone, with the admin-only fields; anyone else reads only themself,
 * without them. Invitations and reporting lines are organization-wide
 * listings (their policy admits organization admins only).
 */
export class Members extends Effect.Service<Members>()("@tks/core/Members", {
  effect: Effect.gen(function*() {
    const repo = yield* MembersRepo
    const pagination = yield* Pagination

    const list = traced("Members.list")(function*(access: Access, params: MemberListParams) {
      const everyone = access.reach === "organization"
      if (params.noManager !== undefined) {
        const refused = requireOrganizationReach(access, "filter by noManager")
        if (refused !== null) return yield* refused
      }
      const filter: PeopleFilter = {
        orgId: access.actor.organizationId,
        status: params.status ?? "active",
        onlyUserId: everyone ? null : access.actor.userId,
        query: params.query ?? null,
        teamId: params.teamId ?? null,
        noManager: params.noManager === true
      }
      return yield* pagination.counted({
        listing: ["members", filter],
        params,
        keyset: byName,
        // A team of another organization is the caller's mistake (400), found by the first page's count.
        count: Effect.flatMap(repo.count(filter), (count) => count.team_known ? Effect.succeed(count.total) : unknownTeamId()),
        rows: (after, limit) => repo.memberPage(filter, after, limit),
        view: (row) => memberView(row, everyone)
      })
    })

    const get = traced("Members.get")(function*(access: Access, id: UserId) {
      const everyone = access.reach === "organization"
      const row = everyone || id === access.actor.userId ? yield* repo.member(access.actor.organizationId, id) : undefined
      if (row === undefined) return yield* new NotFound({ message: "No such member" })
      return memberView(row, everyone)
    })

    const invitations = traced("Members.invitations")(function*(access: Access, params: PageParams) {
      const orgId = access.actor.organizationId
      return yield* pagination.page({
        listing: ["invitations", orgId],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.invitationPage(orgId, after, limit),
        view: invitationView
      })
    })

    const reportingLines = traced("Members.reportingLines")(function*(access: Access, params: ReportingLineParams) {
      const filter: PeopleFilter = {
        orgId: access.actor.organizationId,
        status: params.status ?? "active",
        onlyUserId: null,
        query: null,
        teamId: null,
        noManager: params.noManager === true
      }
      return yield* pagination.counted({
        listing: ["reporting-lines", filter],
        params,
        keyset: byName,
        count: Effect.map(repo.count(filter), (count) => count.total),
        rows: (after, limit) => repo.reportingLinePage(filter, after, limit),
        view: reportingLineView
      })
    })

    return { list, get, invitations, reportingLines } as const
  }),
  dependencies: [MembersRepo.Default, Pagination.Default]
}) {}
