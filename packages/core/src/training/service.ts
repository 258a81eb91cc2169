import { Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { EnrollmentId, OrganizationId, UserId } from "@tks/domain/ids"
import type { PageParams } from "@tks/domain/page-params"
import type { Access } from "@tks/domain/policy"
import type { QuizResult } from "@tks/domain/quiz"
import type { Enrollment, OwnObligation, PersonProgress } from "@tks/domain/training"
import { Links } from "../common/links.js"
import { Pagination } from "../common/pagination.js"
import { iso, isoOrNull } from "../common/time.js"
import type { EnrollmentRow } from "../learning/repo.js"
import { newestAttemptFirst, type ObligationRow, type QuizAttemptRow, TrainingRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/**
 * A person's training as they or an organization admin
 * read it, and the results of each quiz attempt. Every list is whole: the
 * own lists are not paginated (nextCursor null); quiz results are.
 */
export class Training extends Effect.Service<Training>()("@tks/core/Training", {
  effect: Effect.gen(function*() {
    const repo = yield* TrainingRepo
    const pagination = yield* Pagination
    const links = yield* Links

    const itemUrl = { lesson: links.lesson, topic: links.topic, item: links.item } as const

    const obligationView = (row: ObligationRow): OwnObligation => ({
      id: row.id,
      itemType: row.item_type,
      itemId: row.item_id,
      itemName: row.item_name,
      required: row.required,
      status: row.status,
      dueDate: isoOrNull(row.due_date),
      overdue: row.overdue,
      url: itemUrl[row.item_type](row.item_id),
      createdAt: iso(row.created_at)
    })

    const enrollmentView = (row: EnrollmentRow): Enrollment => ({
      id: row.id,
      itemId: row.lesson_id,
      title: row.title,
      status: row.status,
      completedAt: isoOrNull(row.completed_at),
      ...(row.score === null ? {} : { score: row.score }),
      dueDate: isoOrNull(row.due_date),
      url: links.lesson(row.lesson_id),
      enrolledAt: iso(row.enrolled_at)
    })

    const attemptView = (row: QuizAttemptRow): QuizResult => ({
      id: row.id,
      status: "completed",
      completedAt: iso(row.completed_at),
      score: row.score,
      resultsSummary: row.results_summary,
      // Only the quiz result's question fields, whatever else the stored JSON carries.
      questions: row.questions.map((q) => ({
        number: q.number,
        question: q.question,
        isCorrect: q.isCorrect,
        score: q.score,
        answer: q.answer,
        correctAnswer: q.correctAnswer,
        explanation: q.explanation
      }))
    })

    const obligationsOf = (orgId: OrganizationId, userId: UserId) =>
      Effect.map(repo.obligations(orgId, userId), (rows) => rows.map(obligationView))
    const enrollmentsOf = (orgId: OrganizationId, userId: UserId) =>
      Effect.map(repo.enrollments(orgId, userId), (rows) => rows.map(enrollmentView))

    /** GET /v1/me/obligations: active and completed, newest first. */
    const myObligations = traced("Training.myObligations")(function*(access: Access) {
      const data = yield* obligationsOf(access.actor.organizationId, access.actor.userId)
      return { data, nextCursor: null }
    })

    /** GET /v1/me/enrollments: newest first. */
    const myEnrollments = traced("Training.myEnrollments")(function*(access: Access) {
      const data = yield* enrollmentsOf(access.actor.organizationId, access.actor.userId)
      return { data, nextCursor: null }
    })

    /**
     * GET /v1/people/{id}/progress: the person themselves,
     * or an organization admin for anyone with a record in the organization
     * (a person who left included). Anyone else 404, as for an unknown id.
     */
    const progress = traced("Training.progress")(function*(access: Access, userId: UserId) {
      const orgId = access.actor.organizationId
      const mayRead = access.reach === "organization" || userId === access.actor.userId
      const person = mayRead ? yield* repo.person(orgId, userId) : undefined
      if (person === undefined) return yield* new NotFound({ message: "No such person" })
      const [enrollments, obligations] = yield* Effect.all([enrollmentsOf(orgId, userId), obligationsOf(orgId, userId)], {
        concurrency: 2
      })
      const view: PersonProgress = {
        user: { id: person.id, name: person.name, email: person.email },
        enrollments,
        obligations,
        summary: {
          enrollmentCount: enrollments.length,
          completedCount: enrollments.filter((enrollment) => enrollment.status === "completed").length,
          obligationCount: obligations.length,
          overdueCount: obligations.filter((obligation) => obligation.overdue).length
        }
      }
      return view
    })

    /**
     * GET /v1/enrollments/{id}/quiz-results: the learner
     * reads their own; an organization admin (quiz-result review access) any
     * in the organization. Anyone else 404, as for an unknown id.
     */
    const quizResults = traced("Training.quizResults")(function*(
      access: Access,
      enrollmentId: EnrollmentId,
      params: PageParams
    ) {
      const orgId = access.actor.organizationId
      const learner = yield* repo.enrollmentLearner(orgId, enrollmentId)
      if (learner === undefined || (access.reach !== "organization" && learner !== access.actor.userId)) {
        return yield* new NotFound({ message: "No such enrollment" })
      }
      return yield* pagination.page({
        listing: ["quiz-results", orgId, enrollmentId],
        params,
        keyset: newestAttemptFirst,
        rows: (after, limit) => repo.attemptPage(orgId, enrollmentId, after, limit),
        view: attemptView
      })
    })

    return { myObligations, myEnrollments, progress, quizResults } as const
  }),
  dependencies: [TrainingRepo.Default, Pagination.Default, Links.Default]
}) {}
