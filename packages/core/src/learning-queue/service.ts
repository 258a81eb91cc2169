import { Clock, Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { UserId } from "@tks/domain/ids"
import {
  ASSIGNED,
  ASSIGNED_WORK,
  compareRankKeys,
  expectedMastery,
  type LearningQueueEntry,
  PERSONAL_DUTY,
  type QueueCandidate,
  QueueRankKeySchema,
  type RankedCandidate,
  rankQueue
} from "@tks/domain/learning-queue"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { type ReportLimit, reportNothing } from "../rate-limits/report.js"
import { SpecRules } from "../rate-limits/rules.js"
import { RateLimiter } from "../rate-limits/service.js"
import type { Keyset } from "../shared/keyset.js"
import { Links } from "../shared/links.js"
import { type CountedPage, Pagination } from "../shared/pagination.js"
import { type QueueFactRow, LearningQueueRepo } from "./repo.js"
import { traced } from "../shared/traced.js"

interface Candidate extends QueueCandidate {
  readonly row: QueueFactRow
}
type Ranked = RankedCandidate<Candidate>

/** The queue is paginated by its rank key (@tks/domain/learning-queue), carried whole in the signed cursor. */
const byRank: Keyset<Ranked["key"], Ranked> = { key: QueueRankKeySchema, keyOf: (entry) => entry.key }

const candidateOf = (row: QueueFactRow): Candidate => ({
  row,
  id: row.id,
  name: row.name,
  facts: {
    mastery: row.mastery,
    expected: row.raci === null ? null : expectedMastery(row.raci, row.senior),
    owed: row.owed,
    retrainingDue: row.retraining_due,
    started: row.started
  },
  raci: row.raci ?? ASSIGNED,
  required: row.required,
  dueAtMs: row.due_date === null ? null : row.due_date.getTime(),
  blocked: row.blocked
})

const roleNameOf = (row: QueueFactRow): string =>
  row.holder_type === null ? ASSIGNED_WORK : row.holder_type === "person" ? PERSONAL_DUTY : row.holder_name ?? ASSIGNED_WORK

/**
 * GET /v1/me/learning-queue and GET /v1/people/{id}/learning-queue (SPEC
 * 2.10, 4.4, 4.5 rule 2): the ranked topics a person should study next,
 * recomputed on every request (so entries can move between pages) and
 * limited to what the reader can open. The facts come from the person's rows
 * and the organization's topic graph (repo.ts); the types, priorities and order are the domain's
 * (`rankQueue`); pages are cut from the ranked queue after the cursor's rank
 * key, and `total` is the whole queue as ranked on this request.
 *
 * Both reads share one count of 20 a minute per access token (SPEC 8 lists
 * them in one row), taken before anything else is read.
 */
export class LearningQueue extends Effect.Service<LearningQueue>()("@tks/core/LearningQueue", {
  effect: Effect.gen(function*() {
    const repo = yield* LearningQueueRepo
    const pagination = yield* Pagination
    const limiter = yield* RateLimiter
    const links = yield* Links

    const view = (now: number) => ({ candidate, priority, type }: Ranked): LearningQueueEntry => {
      const { row } = candidate
      return {
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
      }
    }

    /** One page of `userId`'s queue as the caller reads it; an empty queue for a person who has left. */
    const queuePage = (access: Access, userId: string, active: boolean, params: PageParams) =>
      Effect.gen(function*() {
        const orgId = access.actor.organizationId
        const now = yield* Clock.currentTimeMillis
        // Computed at most once, and only once the cursor was read (a bad cursor is 400 before any SQL).
        const ranked = yield* Effect.cached(
          active
            ? Effect.map(
              repo.facts({ orgId, userId, reader: readerOf(access.actor), now: new Date(now) }),
              (rows) => rankQueue(rows.map(candidateOf), now)
            )
            : Effect.succeed<ReadonlyArray<Ranked>>([])
        )
        const page = yield* pagination.page({
          // The entries depend on who reads (what they can open), so the cursor is bound to the reader too.
          listing: ["learning-queue", orgId, userId, access.actor.userId],
          params,
          keyset: byRank,
          rows: (after, limit) =>
            Effect.map(ranked, (all) => {
              const from = after === null ? 0 : all.findIndex((entry) => compareRankKeys(entry.key, after) > 0)
              return from < 0 ? [] : all.slice(from, from + limit)
            }),
          view: view(now)
        })
        const total = (yield* ranked).length
        const counted: CountedPage<LearningQueueEntry> = { ...page, total }
        return counted
      })

    const consume = (access: Access, report: ReportLimit) =>
      report(limiter.consume(SpecRules.learningQueue, { organizationId: access.actor.organizationId, key: access.actor.tokenId }))

    /** GET /v1/me/learning-queue. */
    const mine = traced("LearningQueue.mine")(function*(access: Access, params: PageParams, report: ReportLimit = reportNothing) {
      yield* consume(access, report)
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
      function*(access: Access, personId: UserId, params: PageParams, report: ReportLimit = reportNothing) {
        yield* consume(access, report)
        const { actor } = access
        const person = yield* repo.person(actor.organizationId, personId, actor.userId)
        const allowed = person !== undefined &&
          (access.reach === "organization" || person.id === actor.userId || (access.reach === "reports" && person.managed_by_reader))
        if (!allowed) return yield* new NotFound({ message: "No such person" })
        const page = yield* queuePage(access, person.id, person.status === "ACTIVE", params)
        return { user: { id: person.id, name: person.name, email: person.email }, ...page }
      }
    )

    return { mine, forPerson } as const
  }),
  dependencies: [LearningQueueRepo.Default, Pagination.Default, RateLimiter.Default, Links.Default]
}) {}
