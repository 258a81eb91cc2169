import { Schema } from "effect"
import { Count, Fraction, Timestamp } from "./common.js"

/**
 * Quizzes: the questions stored for an enrollment or a pop-quiz recipient
 * (jsonb `questions`), the per-question results an attempt keeps (jsonb
 * `quiz_attempts.questions`), and scoring, which is pure.
 *
 * A quiz is passed at a score of 0.8 or more; scores are
 * fractions 0..1 on the wire.
 */

/** How hard the questions are; the plan gates which a pop quiz may ask for. */
export const QuizDifficulty = Schema.Literal("SIMPLE", "MODERATE", "CHALLENGING", "ADVANCED")
export type QuizDifficulty = typeof QuizDifficulty.Type

/** Every organization's default difficulty (the default is MODERATE on every plan). */
export const defaultQuizDifficulty: QuizDifficulty = "MODERATE"

/** Where a quiz's questions stand: PENDING until the job writes them, READY, or FAILED for good. */
export const QuizStatus = Schema.Literal("PENDING", "READY", "FAILED")
export type QuizStatus = typeof QuizStatus.Type

export const QuestionKind = Schema.Literal("multiple_choice", "cloze")
export type QuestionKind = typeof QuestionKind.Type

/** How many questions an enrollment's quiz asks. */
export const enrollmentQuizQuestions = 5

export const passingScore = 0.8

const QuestionNumber = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))

/** One question as stored: with its correct answer and explanation, which the learner sees only in results. */
export const StoredQuestion = Schema.Struct({
  number: QuestionNumber,
  kind: QuestionKind,
  question: Schema.String,
  /** The options shown; [] for a cloze question (typed in). */
  choices: Schema.Array(Schema.String),
  correctAnswer: Schema.String,
  explanation: Schema.String,
  topicId: Schema.NullOr(Schema.String)
}).annotations({ identifier: "StoredQuestion" })
export type StoredQuestion = typeof StoredQuestion.Type

export const StoredQuestions = Schema.Array(StoredQuestion)

/** One question of a scored attempt (a quiz result's `questions[]`). */
export const QuestionResult = Schema.Struct({
  number: Count,
  question: Schema.String,
  isCorrect: Schema.Boolean,
  score: Fraction,
  answer: Schema.NullOr(Schema.String),
  correctAnswer: Schema.String,
  explanation: Schema.String
}).annotations({ identifier: "QuestionResult" })
export type QuestionResult = typeof QuestionResult.Type

/** A quiz result: one kept attempt at an enrollment's quiz. */
export const QuizResult = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("completed"),
  completedAt: Timestamp,
  score: Fraction,
  resultsSummary: Schema.String,
  questions: Schema.Array(QuestionResult)
}).annotations({ identifier: "QuizResult" })
export type QuizResult = typeof QuizResult.Type

/** A learner's answer to one question, by its number. */
export interface GivenAnswer {
  readonly number: number
  readonly answer: string
}

/**
 * Answers compare as people mean them: trimmed, any run of whitespace one
 * space, case ignored, compatibility forms folded (a full-width "５" is "5").
 */
export const normalizeAnswer = (text: string): string => text.normalize("NFKC").trim().replace(/\s+/gu, " ").toLowerCase()

const isCorrect = (question: StoredQuestion, answer: string | null): boolean => {
  if (answer === null) return false
  const given = normalizeAnswer(answer)
  if (given === "" || given !== normalizeAnswer(question.correctAnswer)) return false
  // A multiple-choice answer must be one of the options shown.
  return question.kind === "cloze" || question.choices.some((choice) => normalizeAnswer(choice) === given)
}

/**
 * What is wrong with a set of answers to `questions`, or null: every number
 * must name a question, at most once. Unanswered questions are allowed (they
 * score 0).
 */
export const answersProblem = (
  questions: ReadonlyArray<StoredQuestion>,
  answers: ReadonlyArray<GivenAnswer>
): string | null => {
  const numbers = new Set(questions.map((question) => question.number))
  const seen = new Set<number>()
  for (const { number } of answers) {
    if (!numbers.has(number)) return `The quiz has no question ${number}`
    if (seen.has(number)) return `Question ${number} is answered more than once`
    seen.add(number)
  }
  return null
}

export interface ScoredQuiz {
  readonly questions: ReadonlyArray<QuestionResult>
  readonly correct: number
  /** correct / questions, 0 for a quiz without questions. */
  readonly score: number
  readonly passed: boolean
  readonly resultsSummary: string
}

/** "4 of 5 correct (80%)". */
export const resultsSummaryOf = (correct: number, total: number): string =>
  `${correct} of ${total} correct (${total === 0 ? 0 : Math.round((correct / total) * 100)}%)`

/** Scores `answers` (assumed free of `answersProblem`) against `questions`, one point per correct answer. */
export const scoreQuiz = (questions: ReadonlyArray<StoredQuestion>, answers: ReadonlyArray<GivenAnswer>): ScoredQuiz => {
  const byNumber = new Map(answers.map((given) => [given.number, given.answer]))
  const results = [...questions]
    .sort((a, b) => a.number - b.number)
    .map((question): QuestionResult => {
      const answer = byNumber.get(question.number) ?? null
      const correct = isCorrect(question, answer)
      return {
        number: question.number,
        question: question.question,
        isCorrect: correct,
        score: correct ? 1 : 0,
        answer,
        correctAnswer: question.correctAnswer,
        explanation: question.explanation
      }
    })
  const correct = results.filter((result) => result.isCorrect).length
  const score = results.length === 0 ? 0 : correct / results.length
  return {
    questions: results,
    correct,
    score,
    passed: results.length > 0 && score >= passingScore,
    resultsSummary: resultsSummaryOf(correct, results.length)
  }
}
