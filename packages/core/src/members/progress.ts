import { Effect } from "effect"
import { unknownTeamId } from "@tks/domain/errors"
import type { Access } from "@tks/domain/policy"
import type { MemberProgress, MemberProgressParams } from "@tks/domain/training"
import { byLogin } from "../common/keyset.js"
import { Pagination } from "../common/pagination.js"
import { isoOrNull } from "../common/time.js"
import { type MemberProgressRow, MemberProgressRepo } from "./progress-repo.js"
import { MembersRepo, type PeopleFilter } from "./repo.js"
import { traced } from "../common/traced.js"

const progressView = (row: MemberProgressRow): MemberProgress => ({
  id: row.id,
  name: row.name,
  email: row.email,
  employmentStatus: row.status,
  companyRoles: row.company_roles,
  lessonCount: row.lesson_count,
  popQuizCount: row.pop_quiz_count,
  lastReviewDate: isoOrNull(row.last_review_at)
})

/**
 * GET /v1/members/progress (rule user.read): everyone who has
 * finished setting up, people who left included, by login name. An
 * organization admin reads every row and every review; anyone else only
 * their own row, whose lastReviewDate then counts only reviews they wrote
 * about themself.
 */
export class MemberProgressList extends Effect.Service<MemberProgressList>()("@tks/core/MemberProgressList", {
  effect: Effect.gen(function*() {
    const repo = yield* MemberProgressRepo
    const members = yield* MembersRepo
    const pagination = yield* Pagination

    const list = traced("MemberProgressList.list")(function*(access: Access, params: MemberProgressParams) {
      const everyone = access.reach === "organization"
      const filter: PeopleFilter = {
        orgId: access.actor.organizationId,
        status: "all",
        signedUpOnly: true,
        onlyUserId: everyone ? null : access.actor.userId,
        query: params.query ?? null,
        teamId: params.teamId ?? null,
        noManager: false
      }
      const reviewsBy = everyone ? null : access.actor.userId
      return yield* pagination.counted({
        listing: ["members-progress", filter],
        params,
        keyset: byLogin,
        // A team of another organization is the caller's mistake (400), found by the first page's count.
        count: Effect.flatMap(members.count(filter), (count) => count.team_known ? Effect.succeed(count.total) : unknownTeamId()),
        rows: (after, limit) => repo.page(filter, reviewsBy, after, limit),
        view: progressView
      })
    })

    return { list } as const
  }),
  dependencies: [MemberProgressRepo.Default, MembersRepo.Default, Pagination.Default]
}) {}
