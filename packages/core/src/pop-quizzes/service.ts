import { Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { PopQuizId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import type { MyPopQuiz, PopQuiz, PopQuizDetail, PopQuizListParams } from "@tks/domain/pop-quiz"
import { newestFirst } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { iso, isoOrNull } from "../common/time.js"
import { type MyPopQuizRow, type PopQuizPageRow, PopQuizzesRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/**
 * Pop quiz reads: the organization's list (organization-wide pop-quiz
 * access), one quiz in its views (an organization admin sees every
 * recipient, a recipient only themself, anyone else 404), and the caller's own.
 */
export class PopQuizReads extends Effect.Service<PopQuizReads>()("@tks/core/PopQuizReads", {
  effect: Effect.gen(function*() {
    const repo = yield* PopQuizzesRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const listView = (row: PopQuizPageRow): PopQuiz => ({
      id: row.id,
      title: row.title,
      prompt: row.prompt,
      dueDate: iso(row.due_date),
      createdAt: iso(row.created_at),
      sentBy: row.sender_id === null || row.sender_name === null ? null : { id: row.sender_id, name: row.sender_name },
      announcementId: row.announcement_id,
      recipientCount: row.recipient_count,
      completedCount: row.completed_count,
      url: links.popQuiz(row.id)
    })

    const myView = (row: MyPopQuizRow): MyPopQuiz => ({
      id: row.id,
      title: row.title,
      prompt: row.prompt,
      dueDate: iso(row.due_date),
      url: links.popQuiz(row.id),
      status: row.status,
      completedAt: isoOrNull(row.completed_at),
      score: row.score
    })

    /** GET /v1/pop-quizzes: newest first; sentByMe keeps the caller's own. */
    const list = traced("PopQuizReads.list")(function*(access: Access, params: PopQuizListParams) {
      const orgId = access.actor.organizationId
      const sentBy = params.sentByMe === true ? access.actor.userId : null
      return yield* pagination.page({
        listing: ["pop-quizzes", orgId, sentBy],
        params,
        keyset: newestFirst,
        rows: (after, limit) => repo.page({ orgId, sentBy, after, limit }),
        view: listView
      })
    })

    /** GET /v1/pop-quizzes/{id}: the summary counts the recipient rows shown. */
    const get = traced("PopQuizReads.get")(function*(access: Access, quizId: PopQuizId) {
      const orgId = access.actor.organizationId
      const only = access.reach === "organization" ? null : access.actor.userId
      const quiz = yield* repo.find(orgId, quizId, only)
      if (quiz === undefined) return yield* new NotFound({ message: "No such pop quiz" })
      const recipients = (yield* repo.recipients(orgId, quizId, only)).map((row) => ({
        user: { id: row.user_id, name: row.name, email: row.email },
        status: row.status,
        completedAt: isoOrNull(row.completed_at),
        score: row.score
      }))
      const detail: PopQuizDetail = {
        id: quiz.id,
        title: quiz.title,
        prompt: quiz.prompt,
        dueDate: iso(quiz.due_date),
        createdAt: iso(quiz.created_at),
        url: links.popQuiz(quiz.id),
        recipients,
        summary: {
          recipientCount: recipients.length,
          completedCount: recipients.filter((recipient) => recipient.status === "COMPLETED").length
        }
      }
      return detail
    })

    /** GET /v1/me/pop-quizzes: the quizzes sent to the caller, newest first, with their own progress. */
    const mine = traced("PopQuizReads.mine")(function*(access: Access) {
      const rows = yield* repo.sentTo(access.actor.organizationId, access.actor.userId)
      return { data: rows.map(myView), nextCursor: null }
    })

    return { list, get, mine } as const
  }),
  dependencies: [PopQuizzesRepo.Default, Pagination.Default, Links.Default]
}) {}
