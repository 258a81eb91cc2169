import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { QuestionKind, QuizDifficulty, QuizStatus } from "./quiz.js"
import { storableText } from "./text.js"
import { Enrollment, EnrollmentStatus } from "./training.js"

/**
 * The learner's own acts (`/v1/me/...`), which the published contract leaves open but the
 * product needs for anything to move to completed: start a lesson, read the
 * quiz prepared for the enrollment, submit answers.
 */


/** An enrollment as the learner's own acts answer it: with when they started it. */
export const LearnerEnrollment = Schema.Struct({
  ...Enrollment.fields,
  startedAt: Schema.NullOr(Timestamp)
}).annotations({ identifier: "LearnerEnrollment" })
export type LearnerEnrollment = typeof LearnerEnrollment.Type

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
