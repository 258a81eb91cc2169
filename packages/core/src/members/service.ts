import { Effect, Schema } from "effect"
import type { Actor } from "@tks/domain/actor"
import { Forbidden, NotFound, unknownTeamId } from "@tks/domain/errors"
import type { MemberStatusFilter } from "@tks/domain/member"
import { defaultLimit } from "@tks/domain/pagination"
import { memberReach } from "@tks/domain/permissions"
import { Cursors, pageOf } from "../shared/cursors.js"
import { MembersRepo, type PeopleFilter } from "./repo.js"
import { invitationView, memberView, reportingLineView } from "./views.js"
import type { PageParams } from "../shared/page-params.js"

const NameKey = Schema.Tuple(Schema.String, Schema.String)
/** (created_at in microseconds since the epoch, id): digits only, so it casts to bigint safely. */
const NewestKey = Schema.Tuple(Schema.String.pipe(Schema.pattern(/^-?\d{1,18}$/)), Schema.String)

export interface MemberListParams extends PageParams {
  readonly query?: string | undefined
  readonly status?: MemberStatusFilter | undefined
  readonly teamId?: string | undefined
  readonly noManager?: boolean | undefined
}

export interface ReportingLineParams extends PageParams {
  readonly status?: MemberStatusFilter | undefined
  readonly noManager?: boolean | undefined
}

const externalRefused = () => new Forbidden({ message: "External accounts may not read members" })
const adminsOnly = () => new Forbidden({ message: "Only organization admins may do this" })

/**
 * SPEC 4.3 (rule user.read): organization admins read everyone; anyone else
 * reads only themself, without the admin-only fields; external accounts get 403.
 * Invitations and reporting lines are for organization admins only.
 */
export class Members extends Effect.Service<Members>()("@tks/core/Members", {
  effect: Effect.gen(function*() {
    const repo = yield* MembersRepo
    const cursors = yield* Cursors

    const list = Effect.fn("Members.list")(function*(actor: Actor, params: MemberListParams) {
      const reach = memberReach(actor.role)
      if (reach === "none") return yield* externalRefused()
      const admin = reach === "everyone"
      if (!admin && params.noManager !== undefined) {
        return yield* new Forbidden({ message: "Only organization admins may filter by noManager" })
      }
      const filter: PeopleFilter = {
        orgId: actor.organizationId,
        status: params.status ?? "active",
        onlyUserId: admin ? null : actor.userId,
        query: params.query ?? null,
        teamId: params.teamId ?? null,
        noManager: params.noManager === true
      }
      const listing = JSON.stringify([
        "members",
        filter.orgId,
        filter.onlyUserId ?? "*",
        filter.status,
        filter.query,
        filter.teamId,
        filter.noManager
      ])
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, NameKey)
      const { team_known, total } = yield* repo.count(filter)
      if (!team_known) return yield* unknownTeamId()
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.memberPage(filter, after, limit)
      const page = pageOf(
        rows,
        limit,
        (row) => memberView(row, admin),
        (row) => cursors.encode(listing, [row.sort_name, row.id])
      )
      return { ...page, total }
    })

    const get = Effect.fn("Members.get")(function*(actor: Actor, id: string) {
      const reach = memberReach(actor.role)
      if (reach === "none") return yield* externalRefused()
      const admin = reach === "everyone"
      const row = admin || id === actor.userId ? yield* repo.member(actor.organizationId, id) : undefined
      if (row === undefined) return yield* new NotFound({ message: "No such member" })
      return memberView(row, admin)
    })

    const invitations = Effect.fn("Members.invitations")(function*(actor: Actor, params: PageParams) {
      if (memberReach(actor.role) !== "everyone") return yield* adminsOnly()
      const listing = JSON.stringify(["invitations", actor.organizationId])
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, NewestKey)
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.invitationPage(actor.organizationId, after, limit)
      return pageOf(rows, limit, invitationView, (row) => cursors.encode(listing, [row.created_us, row.id]))
    })

    const reportingLines = Effect.fn("Members.reportingLines")(function*(actor: Actor, params: ReportingLineParams) {
      if (memberReach(actor.role) !== "everyone") return yield* adminsOnly()
      const filter: PeopleFilter = {
        orgId: actor.organizationId,
        status: params.status ?? "active",
        onlyUserId: null,
        query: null,
        teamId: null,
        noManager: params.noManager === true
      }
      const listing = JSON.stringify(["reporting-lines", filter.orgId, filter.status, filter.noManager])
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, NameKey)
      const { total } = yield* repo.count(filter)
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.reportingLinePage(filter, after, limit)
      const page = pageOf(rows, limit, reportingLineView, (row) => cursors.encode(listing, [row.sort_name, row.id]))
      return { ...page, total }
    })

    return { list, get, invitations, reportingLines } as const
  }),
  dependencies: [MembersRepo.Default, Cursors.Default]
}) {}
