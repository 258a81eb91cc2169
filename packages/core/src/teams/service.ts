import { Effect } from "effect"
import type { Team } from "@tks/domain/team"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import { byName } from "../common/keyset.js"
import { Pagination } from "../common/pagination.js"
import { TeamsRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/** GET /v1/teams: every team for a caller reaching the organization, otherwise the teams they are on. */
export class Teams extends Effect.Service<Teams>()("@tks/core/Teams", {
  effect: Effect.gen(function*() {
    const repo = yield* TeamsRepo
    const pagination = yield* Pagination

    const list = traced("Teams.list")(function*(access: Access, params: PageParams) {
      const orgId = access.actor.organizationId
      const memberOf = access.reach === "organization" ? null : access.actor.userId
      return yield* pagination.page({
        listing: ["teams", orgId, memberOf],
        params,
        keyset: byName,
        rows: (after, limit) => repo.page({ orgId, memberOf, after, limit }),
        view: (row): Team => ({ id: row.id, name: row.name, memberCount: row.member_count })
      })
    })

    return { list } as const
  }),
  dependencies: [TeamsRepo.Default, Pagination.Default]
}) {}
