import type { Keys } from "./keys.js"
import type { FixtureQuestion } from "./schema-training.js"

/**
 * The jsonb shapes of prepared questions and of an attempt's answered
 * questions (BRIEF "Stored quiz shapes"): what the quiz and pop-quiz readers
 * expect to find, whether a job or a fixture wrote it.
 */
export interface StoredQuestion {
  readonly number: number
  readonly kind: "multiple_choice" | "cloze"
  readonly question: string
  readonly choices: ReadonlyArray<string>
  readonly correctAnswer: string
  readonly explanation: string
  readonly topicId: string | null
}

export interface QuestionResult {
  readonly number: number
  readonly question: string
  readonly isCorrect: boolean
  readonly score: number
  readonly answer: string | null
  readonly correctAnswer: string
  readonly explanation: string
}

/** The generator a fixture's questions are recorded under. */
export const fixtureGenerator = "fixture"

/**
 * Checks a fixture's question list and turns it into stored questions:
 * numbered 1..n in order, a multiple-choice question offers its correct
 * answer among at least two choices, a cloze question offers none.
 */
export const storedQuestions = (keys: Keys, questions: ReadonlyArray<FixtureQuestion>, path: string): ReadonlyArray<StoredQuestion> =>
  questions.map((question, j) => {
    const at = `${path}[${j}]`
    if (question.number !== j + 1) keys.problem(`${at}.number`, `questions are numbered 1, 2, 3... in order; expected ${j + 1}`)
    if (question.kind === "multiple_choice") {
      if (question.choices.length < 2) keys.problem(`${at}.choices`, "a multiple-choice question offers at least two choices")
      else if (!question.choices.includes(question.correctAnswer)) {
        keys.problem(`${at}.correctAnswer`, "the correct answer must be one of the choices")
      }
    } else if (question.choices.length > 0) keys.problem(`${at}.choices`, "a cloze question offers no choices")
    return {
      number: question.number,
      kind: question.kind,
      question: question.question,
      choices: question.choices,
      correctAnswer: question.correctAnswer,
      explanation: question.explanation,
      topicId: question.topic === undefined ? null : keys.ref("topic", question.topic, `${at}.topic`) ?? null
    }
  })

/**
 * The answered questions of an attempt the fixture gives only a score for:
 * the first round(score x n) answered correctly, the rest with a wrong
 * choice (or no answer), so quiz results read like a real attempt.
 */
export const resultsFor = (questions: ReadonlyArray<StoredQuestion>, score: number): ReadonlyArray<QuestionResult> => {
  const correct = Math.round(score * questions.length)
  return questions.map((question, j) => {
    const isCorrect = j < correct
    const wrong = question.choices.find((choice) => choice !== question.correctAnswer) ?? null
    return {
      number: question.number,
      question: question.question,
      isCorrect,
      score: isCorrect ? 1 : 0,
      answer: isCorrect ? question.correctAnswer : wrong,
      correctAnswer: question.correctAnswer,
      explanation: question.explanation
    }
  })
}

/** "4 of 5 correct", or the score as a percentage when there are no question rows. */
export const summaryOf = (results: ReadonlyArray<QuestionResult>, score: number): string =>
  results.length === 0
    ? `Scored ${Math.round(score * 100)}%`
    : `${results.filter((result) => result.isCorrect).length} of ${results.length} correct`

/**
 * The small fixed set a pop-quiz recipient who has already started gets
 * when the fixture names no questions: about the content's title, so the
 * detail and results views have something real to show.
 */
export const fixedQuestions = (contentTitle: string): ReadonlyArray<StoredQuestion> => [
  {
    number: 1,
    kind: "multiple_choice",
    question: "Which document is this pop quiz about?",
    choices: [contentTitle, "The staff canteen menu", "Last year's holiday calendar"],
    correctAnswer: contentTitle,
    explanation: `The quiz was sent on "${contentTitle}".`,
    topicId: null
  },
  {
    number: 2,
    kind: "cloze",
    question: `The quiz asks about the document titled "____".`,
    choices: [],
    correctAnswer: contentTitle,
    explanation: `Its title is "${contentTitle}".`,
    topicId: null
  }
]
