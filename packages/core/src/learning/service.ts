import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { BadRequest, NotFound } from "@tks/domain/errors"
import type { EnrollmentId, LessonId } from "@tks/domain/ids"
import type { LearnerEnrollment, LearnerQuiz, QuizAnswers } from "@tks/domain/learning"
import { LearningCode } from "@tks/domain/learning"
import { answersProblem, type QuizResult, scoreQuiz } from "@tks/domain/quiz"
import type { Access } from "@tks/domain/policy"
import { readerOf } from "../knowledge/access.js"
import { QuizPreparation } from "../quizzes/preparation.js"
import { Links } from "../common/links.js"
import { iso, isoOrNull } from "../common/time.js"
import { CompletionRepo } from "./completion-repo.js"
import { type EnrollmentRow, LearningRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/**
 * The learner's acts (`/v1/me/...`, policies.learner): start a lesson, read
 * the quiz prepared for an enrollment, submit answers. Always the caller's
 * own records (reach `self`): another person's enrollment, or one of another
 * organization, is 404 as if absent. Each act is one transaction.
 */
export class Learning extends Effect.Service<Learning>()("@tks/core/Learning", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* LearningRepo
    const completion = yield* CompletionRepo
    const preparation = yield* QuizPreparation
    const links = yield* Links

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
     * quiz prepared; `created` true.
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
        if (!created) {
          yield* repo.markStarted(orgId, enrollmentId)
          yield* preparation.retryFailed({ orgId, enrollmentId })
        }
        const row = yield* repo.enrollment(orgId, userId, enrollmentId)
        if (row === undefined) return yield* noLesson()
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
     * raises mastery to PARTIAL where it was NONE. Refused with 400 while the
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
        if (scored.passed) {
          yield* completion.completeEnrollment(orgId, enrollmentId, scored.score)
          yield* completion.completeLessonObligations(orgId, userId, row.lesson_id)
        }
        yield* completion.raiseMastery(orgId, userId, row.lesson_id, scored.passed ? "MASTERED" : "PARTIAL")
        yield* completion.completeSatisfiedObligations(orgId, userId, row.lesson_id)
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
  dependencies: [LearningRepo.Default, CompletionRepo.Default, QuizPreparation.Default, Links.Default]
}) {}
