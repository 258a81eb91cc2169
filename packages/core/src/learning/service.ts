import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Caller } from "@tks/domain/caller"
import { BadRequest, NotFound } from "@tks/domain/errors"
import type { EnrollmentId, LessonId } from "@tks/domain/ids"
import type { LearnerEnrollment, LearnerQuiz, QuizAnswers } from "@tks/domain/learning"
import { LearningCode } from "@tks/domain/learning"
import { answersProblem, type QuizResult, scoreQuiz } from "@tks/domain/quiz"
import type { Access } from "@tks/domain/policy"
import { enrollmentsCreated } from "../assigning/enrollment-events.js"
import { obligationRef } from "../assigning/obligation-events.js"
import type { ObligationRow } from "../assigning/obligation-rows.js"
import { type EventDraft, Journal } from "../journal/journal.js"
import { readerOf } from "../knowledge/access.js"
import { QuizPreparation } from "../quizzes/preparation.js"
import { Links } from "../common/links.js"
import { iso, isoOrNull } from "../common/time.js"
import { CompletionRepo } from "./completion-repo.js"
import { type EnrollmentRow, LearningRepo } from "./repo.js"
import { traced } from "../common/traced.js"

const obligationCompleted = (row: ObligationRow): EventDraft => ({
  type: "obligation.completed",
  data: { obligation: obligationRef(row) },
  personId: row.user_id
})

/**
 * The learner's acts (`/v1/me/...`, policies.learner): start a lesson, read
 * the quiz prepared for an enrollment, submit answers. Always the caller's
 * own records (reach `self`): another person's enrollment, or one of another
 * organization, is 404 as if absent. Each act is one transaction, with its
 * audit row and events.
 */
export class Learning extends Effect.Service<Learning>()("@tks/core/Learning", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* LearningRepo
    const completion = yield* CompletionRepo
    const preparation = yield* QuizPreparation
    const links = yield* Links
    const journal = yield* Journal

    const noLesson = () => new NotFound({ message: "No such lesson" })
    const noEnrollment = () => new NotFound({ message: "No such enrollment" })

    const enrollmentView = (row: EnrollmentRow): LearnerEnrollment => ({
      id: row.id,
      itemId: row.lesson_id,
      title: row.title,
      status: row.status,
      completedAt: isoOrNull(row.completed_at),
      ...(row.score === null ? {} : { score: row.score }),
      dueDate: isoOrNull(row.due_date),
      url: links.lesson(row.lesson_id),
      enrolledAt: iso(row.enrolled_at),
      startedAt: isoOrNull(row.started_at)
    })

    /**
     * Starts lesson `lessonId` for the caller. With an enrollment in progress:
     * marks it started (the first time is kept) and tries a FAILED quiz again;
     * `created` false. Without one: a lesson the caller cannot read is 404; a
     * closed lesson (unless it was made for them) or one made for someone
     * else is 400; otherwise a self-enrollment is created, started, and its
     * quiz prepared; `created` true. Recorded as `enrollment.created` (with
     * its event) or `lesson.started`.
     */
    const startLesson = traced("Learning.startLesson")(function*(access: Access, lessonId: LessonId) {
      const { organizationId: orgId, userId } = access.actor
      const started = sql.withTransaction(Effect.gen(function*() {
        const lesson = yield* repo.lessonToStart(orgId, userId, readerOf(access.actor), lessonId)
        if (lesson === undefined) return yield* noLesson()
        let enrollmentId = lesson.open_enrollment_id
        let created = false
        if (enrollmentId === null) {
          if (!lesson.readable) return yield* noLesson()
          if (lesson.personal_for_user_id !== null && lesson.personal_for_user_id !== userId) {
            return yield* new BadRequest({ code: LearningCode.lessonClosed, message: "This lesson was made for another person" })
          }
          if (lesson.status === "closed" && lesson.personal_for_user_id !== userId) {
            return yield* new BadRequest({ code: LearningCode.lessonClosed, message: "This lesson is closed" })
          }
          enrollmentId = yield* repo.insertEnrollment(orgId, userId, lessonId)
          if (enrollmentId !== null) {
            created = true
            yield* preparation.prepare({ orgId, enrollmentIds: [enrollmentId] })
          }
        }
        // Enrolled meanwhile by another request (an assignment, a second start): start that one.
        enrollmentId ??= (yield* repo.lessonToStart(orgId, userId, readerOf(access.actor), lessonId))?.open_enrollment_id ?? null
        if (enrollmentId === null) return yield* noLesson()
        let startedNow: Date | undefined
        if (!created) {
          startedNow = yield* repo.markStarted(orgId, enrollmentId)
          yield* preparation.retryFailed({ orgId, enrollmentId })
        }
        const row = yield* repo.enrollment(orgId, userId, enrollmentId)
        if (row === undefined) return yield* noLesson()
        const events = created ? enrollmentsCreated([{ id: row.id, user_id: userId }], lesson) : []
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: events[0]?.type ?? "lesson.started",
          targets: [{ type: "enrollment", id: row.id }, { type: "lesson", id: lesson.id }],
          changes: startedNow === undefined ? undefined : { startedAt: { old: null, new: iso(startedNow) } },
          events
        })
        return { enrollment: enrollmentView(row), created }
      }))
      return yield* started
    })

    /** The caller's quiz for one of their enrollments, without correct answers or explanations. */
    const quiz = traced("Learning.quiz")(function*(access: Access, enrollmentId: EnrollmentId) {
      const row = yield* repo.quiz(access.actor.organizationId, access.actor.userId, enrollmentId, false)
      if (row === undefined) return yield* noEnrollment()
      const view: LearnerQuiz = {
        enrollmentId: row.enrollment_id,
        lessonId: row.lesson_id,
        title: row.title,
        status: row.status,
        difficulty: row.difficulty,
        failureReason: row.status === "FAILED" ? row.failure_reason : null,
        questions: row.status === "READY"
          ? (row.questions ?? []).map(({ choices, kind, number, question }) => ({ number, kind, question, choices }))
          : [],
        enrollmentStatus: row.enrollment_status,
        attempts: row.attempts
      }
      return view
    })

    /**
     * Scores the caller's answers and keeps the attempt. A pass (score >= 0.8)
     * completes the enrollment, its lesson obligations, raises mastery and
     * completes the knowledge obligations it satisfies; a failed attempt
     * raises mastery to PARTIAL where it was NONE. Recorded with an
     * `enrollment.completed` and an `obligation.completed` for what it
     * completed (named by the first), else as `quiz_attempt.submitted`; the
     * answers are never in the record. Refused with 400 while the
     * quiz is not READY (QUIZ_NOT_READY), once the enrollment is completed
     * (ENROLLMENT_COMPLETED), and for answers to questions the quiz does not
     * have or answered twice (INVALID_ANSWERS).
     */
    const submit = traced("Learning.submit")(function*(access: Access, enrollmentId: EnrollmentId, body: QuizAnswers) {
      const { organizationId: orgId, userId } = access.actor
      return yield* sql.withTransaction(Effect.gen(function*() {
        const row = yield* repo.quiz(orgId, userId, enrollmentId, true)
        if (row === undefined) return yield* noEnrollment()
        if (row.enrollment_status === "completed") {
          return yield* new BadRequest({ code: LearningCode.enrollmentCompleted, message: "This enrollment is already completed" })
        }
        if (row.status !== "READY" || row.questions === null) {
          return yield* new BadRequest({
            code: LearningCode.quizNotReady,
            message: row.status === "FAILED" ? "The quiz could not be prepared; start the lesson again to retry" : "The quiz is not ready yet"
          })
        }
        const problem = answersProblem(row.questions, body.answers)
        if (problem !== null) return yield* new BadRequest({ code: LearningCode.invalidAnswers, message: problem })
        const scored = scoreQuiz(row.questions, body.answers)
        const attempt = yield* repo.insertAttempt({ orgId, userId, enrollmentId, ...scored })
        const events: Array<EventDraft> = []
        if (scored.passed) {
          if (yield* completion.completeEnrollment(orgId, enrollmentId, scored.score)) {
            events.push({
              type: "enrollment.completed",
              data: { enrollment: { id: enrollmentId, score: scored.score }, lesson: { id: row.lesson_id, title: row.title } },
              personId: userId
            })
          }
          const lessonObligations = yield* completion.completeLessonObligations(orgId, userId, row.lesson_id)
          for (const done of lessonObligations) events.push(obligationCompleted(done))
        }
        yield* completion.raiseMastery(orgId, userId, row.lesson_id, scored.passed ? "MASTERED" : "PARTIAL")
        const satisfied = yield* completion.completeSatisfiedObligations(orgId, userId, row.lesson_id)
        for (const done of satisfied) events.push(obligationCompleted(done))
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: events[0]?.type ?? "quiz_attempt.submitted",
          targets: [{ type: "quiz_attempt", id: attempt.id }, { type: "enrollment", id: enrollmentId }, { type: "lesson", id: row.lesson_id }],
          changes: { score: { new: scored.score }, passed: { new: scored.passed } },
          events
        })
        const result: QuizResult = {
          id: attempt.id,
          status: "completed",
          completedAt: iso(attempt.completed_at),
          score: scored.score,
          resultsSummary: scored.resultsSummary,
          questions: scored.questions
        }
        return result
      }))
    })

    return { startLesson, quiz, submit } as const
  }),
  dependencies: [LearningRepo.Default, CompletionRepo.Default, QuizPreparation.Default, Links.Default, Journal.Default]
}) {}
