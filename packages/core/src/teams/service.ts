import { Effect, Schema } from "effect"
import type { Actor } from "@tks/domain/actor"
import { defaultLimit } from "@tks/domain/pagination"
import { isOrganizationAdmin } from "@tks/domain/permissions"
import { Cursors, pageOf } from "../shared/cursors.js"
import { TeamsRepo } from "./repo.js"
import type { PageParams } from "../shared/page-params.js"

const TeamKey = Schema.Tuple(Schema.String, Schema.String)

/** GET /v1/teams: organization admins see every team, anyone else the teams they are on. */
export class Teams extends Effect.Service<Teams>()("@tks/core/Teams", {
  effect: Effect.gen(function*() {
    const repo = yield* TeamsRepo
    const cursors = yield* Cursors

    const list = Effect.fn("Teams.list")(function*(
      actor: Actor,
      params: PageParams
    ) {
      const memberOf = isOrganizationAdmin(actor.role) ? null : actor.userId
      const listing = `teams:${actor.organizationId}:${memberOf ?? "*"}`
      const after = params.cursor === undefined ? null : yield* cursors.decode(listing, params.cursor, TeamKey)
      const limit = params.limit ?? defaultLimit
      const rows = yield* repo.page({ orgId: actor.organizationId, memberOf, after, limit })
      return pageOf(
        rows,
        limit,
        (row) => ({ id: row.id, name: row.name, memberCount: row.member_count }),
        (row) => cursors.encode(listing, [row.sort_name, row.id])
      )
    })

    return { list } as const
  }),
  dependencies: [TeamsRepo.Default, Cursors.Default]
}) {}
