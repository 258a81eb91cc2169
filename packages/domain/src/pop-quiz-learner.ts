import { Schema } from "effect"
import { Fraction, Timestamp } from "./common.js"
import { QuizQuestion } from "./learning.js"
import { QuestionResult } from "./quiz.js"

/**
 * A recipient's own acts on a pop quiz sent to them (`/v1/me/pop-quizzes/...`),
 * which the published contract leaves open but without which nothing moves to COMPLETED:
 * start it (not_started -> STARTED: the questions, without their answers),
 * then answer it once (STARTED -> COMPLETED: scored, kept, and shown with the
 * right answers). GET /v1/me/pop-quizzes then shows the status and score.
 */

/** POST /v1/me/pop-quizzes/{id}/start: the caller's own questions. */
export const PopQuizAttempt = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  prompt: Schema.String,
  dueDate: Timestamp,
  status: Schema.Literal("STARTED"),
  startedAt: Timestamp,
  questions: Schema.Array(QuizQuestion)
}).annotations({ identifier: "PopQuizAttempt" })
export type PopQuizAttempt = typeof PopQuizAttempt.Type

/** POST /v1/me/pop-quizzes/{id}/answers: the scored answers, with the right ones and why. */
export const PopQuizOutcome = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("COMPLETED"),
  completedAt: Timestamp,
  score: Fraction,
  passed: Schema.Boolean.annotations({ description: "score of 0.8 or more" }),
  resultsSummary: Schema.String,
  questions: Schema.Array(QuestionResult)
}).annotations({ identifier: "PopQuizOutcome" })
export type PopQuizOutcome = typeof PopQuizOutcome.Type

/** Stable codes of the refusals (400: the quiz's state does not allow the act, as every other state refusal is answered). */
export const PopQuizLearnerCode = {
  notReady: "POP_QUIZ_NOT_READY",
  notStarted: "POP_QUIZ_NOT_STARTED",
  completed: "POP_QUIZ_COMPLETED"
} as const
