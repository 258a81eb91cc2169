import { Clock, Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { UserId } from "@tks/domain/ids"
import { type LearningQueueEntry, QueueRankKeySchema, type RankedCandidate } from "@tks/domain/learning-queue"
import { rankPage } from "@tks/domain/learning-queue-page"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import type { Keyset } from "../common/keyset.js"
import { Links } from "../common/links.js"
import { type CountedPage, Pagination } from "../common/pagination.js"
import { type Candidate, queueCandidates } from "./candidates.js"
import { factRows, roleNameOf } from "./fact-rows.js"
import { type QueueFactRow, LearningQueueRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/** An entry of the page: ranked, with all it shows. */
interface PageEntry extends RankedCandidate<Candidate> {
  readonly row: QueueFactRow
}

/** The queue is paginated by its rank key (@tks/domain/learning-queue), carried whole in the signed cursor. */
const byRank: Keyset<PageEntry["key"], PageEntry> = { key: QueueRankKeySchema, keyOf: (entry) => entry.key }

/**
 * GET /v1/me/learning-queue and GET /v1/people/{id}/learning-queue
 * (docs/domain.md, The learning queue): the ranked topics a person should study next,
 * recomputed on every request (so entries can move between pages) and
 * limited to what the reader can open. The facts come from the person's rows
 * and the organization's topic graph (repo.ts); the types, priorities and order are the domain's
 * (`rankPage`, the order of `rankQueue`): a page is the entries ranked
 * right after the cursor's rank key, selected without sorting the whole
 * queue, and `total` is the whole queue's size on this request. Only the
 * page's entries get their rows (the duty they come through, the lesson to
 * start from, the prerequisite in the way).
 *
 * Both reads share one count of 20 a minute per access token (one limit
 * for both), taken before anything else is read.
 */
export class LearningQueue extends Effect.Service<LearningQueue>()("@tks/core/LearningQueue", {
  effect: Effect.gen(function*() {
    const repo = yield* LearningQueueRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const view = (now: number) => ({ candidate, priority, row, type }: PageEntry): LearningQueueEntry => ({
      topicId: row.kind === "topic" ? row.id : null,
      topicName: row.name,
      type,
      priority,
      raciRole: candidate.raci,
      roleName: roleNameOf(row),
      dueDate: row.due_date === null ? null : row.due_date.toISOString(),
      overdue: candidate.dueAtMs !== null && candidate.dueAtMs < now,
      lessonId: row.lesson_id,
      blocked: row.blocked,
      blockingPrerequisiteName: row.blocking_name,
      url: row.kind === "topic" ? links.topic(row.id) : links.lesson(row.id)
    })

    /** One page of `userId`'s queue as the caller reads it; an empty queue for a person who has left. */
    const queuePage = (access: Access, userId: string, active: boolean, params: PageParams) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const orgId = access.actor.organizationId
        // Set when the rows are read: after the cursor was (a bad cursor is 400 before any SQL), once per request.
        let total = 0
        const rows = (after: PageEntry["key"] | null, limit: number) =>
          Effect.map(repo.sources({ orgId, userId, reader: readerOf(access.actor), now: new Date(now) }), ({ graph, person }) => {
            const page = rankPage(queueCandidates(graph, person), now, after, limit)
            total = page.total
            const facts = factRows(graph, person, page.entries.map((entry) => entry.candidate))
            return page.entries.map(({ candidate, key, priority, type }, i): PageEntry => ({ candidate, type, priority, key, row: facts[i]! }))
          })
        return Effect.map(
          pagination.page({
            // The entries depend on who reads (what they can open), so the cursor is bound to the reader too.
            listing: ["learning-queue", orgId, userId, access.actor.userId],
            params,
            keyset: byRank,
            rows: active ? rows : () => Effect.succeed<ReadonlyArray<PageEntry>>([]),
            view: view(now)
          }),
          (page): CountedPage<LearningQueueEntry> => ({ ...page, total })
        )
      })

    /** GET /v1/me/learning-queue. */
    const mine = traced("LearningQueue.mine")(function*(access: Access, params: PageParams) {
      // The token was checked a moment ago: its holder is an active member.
      return yield* queuePage(access, access.actor.userId, true, params)
    })

    /**
     * GET /v1/people/{id}/learning-queue: the person themselves, an
     * organization admin, or, when the policy grants the reporting line
     * (`reports`), one of the person's managers at any depth of it; anyone
     * else, another organization's ids and unknown ids get 404.
     */
    const forPerson = traced("LearningQueue.forPerson")(
      function*(access: Access, personId: UserId, params: PageParams) {
        const person = yield* repo.person(access, personId)
        if (person === undefined || !person.in_reach) return yield* new NotFound({ message: "No such person" })
        const page = yield* queuePage(access, person.id, person.status === "ACTIVE", params)
        return { user: { id: person.id, name: person.name, email: person.email }, ...page }
      }
    )

    return { mine, forPerson } as const
  }),
  dependencies: [LearningQueueRepo.Default, Pagination.Default, Links.Default]
}) {}
