import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { QuestionKind, QuizDifficulty, QuizStatus } from "./quiz.js"
import { storableText } from "./text.js"

/**
 * The learner's own acts (`/v1/me/...`), which SPEC does not show but the
 * product needs for anything to move to completed: start a lesson, read the
 * quiz prepared for the enrollment, submit answers.
 */

export const LessonPath = Schema.Struct({ id: Schema.String })
export const EnrollmentPath = Schema.Struct({ id: Schema.String })

export const EnrollmentStatus = Schema.Literal("in_progress", "completed")
export type EnrollmentStatus = typeof EnrollmentStatus.Type

/** An enrollment (SPEC 2.8), with when the learner started it. */
export const Enrollment = Schema.Struct({
  id: Schema.String,
  /** The lesson's id. */
  itemId: Schema.String,
  title: Schema.String,
  status: EnrollmentStatus,
  completedAt: Schema.NullOr(Timestamp),
  /** The passing attempt's score (0..1) once completed; null before. */
  score: Schema.NullOr(Schema.Number),
  /** The due date of the person's active obligation for the lesson, if any. */
  dueDate: Schema.NullOr(Timestamp),
  url: Schema.String,
  enrolledAt: Timestamp,
  startedAt: Schema.NullOr(Timestamp)
}).annotations({ identifier: "Enrollment" })
export type Enrollment = typeof Enrollment.Type

/** A question as the learner sees it before answering: no correct answer, no explanation. */
export const QuizQuestion = Schema.Struct({
  number: Schema.Number,
  kind: QuestionKind,
  question: Schema.String,
  choices: Schema.Array(Schema.String)
}).annotations({ identifier: "QuizQuestion" })
export type QuizQuestion = typeof QuizQuestion.Type

/** The quiz prepared for one of the caller's enrollments. */
export const LearnerQuiz = Schema.Struct({
  enrollmentId: Schema.String,
  lessonId: Schema.String,
  title: Schema.String,
  status: QuizStatus,
  difficulty: QuizDifficulty,
  /** Why preparing the questions failed, when status is FAILED; else null. */
  failureReason: Schema.NullOr(Schema.String),
  /** [] until status is READY. */
  questions: Schema.Array(QuizQuestion),
  enrollmentStatus: EnrollmentStatus,
  /** Attempts submitted so far (every one is kept). */
  attempts: Schema.Number
}).annotations({ identifier: "LearnerQuiz" })
export type LearnerQuiz = typeof LearnerQuiz.Type

export const maxAnswerLength = 1000
export const maxAnswers = 200

export const QuizAnswer = Schema.Struct({
  number: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  answer: storableText(Schema.String).pipe(Schema.maxLength(maxAnswerLength))
})

/** POST /v1/me/enrollments/{id}/quiz-attempts: one answer per question (unanswered ones score 0). */
export const QuizAnswers = Schema.Struct({
  answers: Schema.Array(QuizAnswer).pipe(Schema.maxItems(maxAnswers))
}).annotations({ identifier: "QuizAnswers" })
export type QuizAnswers = typeof QuizAnswers.Type

/** Stable codes of the learner acts' 400 answers. */
export const LearningCode = {
  lessonClosed: "LESSON_CLOSED",
  quizNotReady: "QUIZ_NOT_READY",
  enrollmentCompleted: "ENROLLMENT_COMPLETED",
  invalidAnswers: "INVALID_ANSWERS"
} as const
