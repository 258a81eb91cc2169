import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { UserId } from "@tks/domain/ids"
import type { MemberStatus } from "@tks/domain/roles"
import { byLogin } from "../common/keyset.js"
import { heldCompanyRoles, peopleWhere, type PeopleFilter } from "./repo.js"

export interface MemberProgressRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly login: string
  readonly status: MemberStatus
  readonly company_roles: ReadonlyArray<{ readonly id: string; readonly name: string }>
  readonly lesson_count: number
  readonly pop_quiz_count: number
  readonly last_review_at: Date | null
}

/**
 * Member progress rows: one page by login name with every
 * row's counts aggregated in the same statement (each count reads its own
 * per-person index: enrollments_newest, pop_quiz_recipients_by_user,
 * member_reviews_newest or member_reviews_by_author).
 */
export class MemberProgressRepo extends Effect.Service<MemberProgressRepo>()("@tks/core/MemberProgressRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * `reviewsBy`: count only reviews this person wrote (a member reading their
     * own row); null counts every review about the member.
     */
    const page = (
      filter: PeopleFilter,
      reviewsBy: UserId | null,
      key: readonly [string, string] | null,
      limit: number
    ) =>
      sql<MemberProgressRow>`
        SELECT u.id, u.name, u.email, ${byLogin.login(sql, "u")} AS login, u.status,
          ${heldCompanyRoles(sql, "u")} AS company_roles,
          (SELECT count(DISTINCT e.lesson_id)::int FROM enrollments e
            WHERE e.org_id = u.org_id AND e.user_id = u.id) AS lesson_count,
          (SELECT count(*)::int FROM pop_quiz_recipients r
            WHERE r.org_id = u.org_id AND r.user_id = u.id) AS pop_quiz_count,
          (SELECT max(mr.reviewed_at) FROM member_reviews mr
            WHERE mr.org_id = u.org_id AND mr.user_id = u.id
              ${reviewsBy === null ? sql`` : sql`AND mr.author_id = ${reviewsBy}`}) AS last_review_at
        FROM users u
        WHERE ${peopleWhere(sql, filter)} ${byLogin.after(sql, "u", key)}
        ORDER BY ${byLogin.login(sql, "u")}, u.id
        LIMIT ${limit}`

    return { page } as const
  })
}) {}
