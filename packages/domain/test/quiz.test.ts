import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { QuizAnswers } from "@tks/domain/learning"
import {
  answersProblem,
  normalizeAnswer,
  resultsSummaryOf,
  scoreQuiz,
  type StoredQuestion,
  StoredQuestions
} from "@tks/domain/quiz"

const cloze = (number: number, correctAnswer: string): StoredQuestion => ({
  number,
  kind: "cloze",
  question: `Fill in the blank ${number}: _____`,
  choices: [],
  correctAnswer,
  explanation: `Because ${correctAnswer}.`,
  topicId: null
})

const choice = (number: number, correctAnswer: string, choices: ReadonlyArray<string>): StoredQuestion => ({
  number,
  kind: "multiple_choice",
  question: `Question ${number}?`,
  choices,
  correctAnswer,
  explanation: "",
  topicId: "top_1"
})

const five = [
  cloze(1, "30 minutes"),
  choice(2, "Canary", ["Canary", "Hotfix", "Rollback"]),
  cloze(3, "second engineer"),
  choice(4, "90 days", ["30 days", "90 days", "1 year"]),
  cloze(5, "Monday")
]

describe("answers are compared as people mean them", () => {
  it("trimmed, whitespace runs made one space, case ignored, compatibility forms folded", () => {
    expect(normalizeAnswer("  Second \n\t ENGINEER ")).toBe("second engineer")
    expect(normalizeAnswer("３０ minutes")).toBe("30 minutes")
  })

  it("a cloze answer is right whatever its case and spacing; a wrong word is wrong", () => {
    const scored = scoreQuiz([cloze(1, "Second engineer")], [{ number: 1, answer: "  second   ENGINEER" }])
    expect(scored.questions[0]?.isCorrect).toBe(true)
    expect(scoreQuiz([cloze(1, "Second engineer")], [{ number: 1, answer: "second manager" }]).questions[0]?.isCorrect).toBe(
      false
    )
  })

  it("a multiple-choice answer must be one of the choices shown, even if it matches the stored answer", () => {
    const odd = choice(1, "Canary", ["Blue", "Green"])
    expect(scoreQuiz([odd], [{ number: 1, answer: "Canary" }]).questions[0]?.isCorrect).toBe(false)
    const fair = choice(1, "Canary", ["Blue", "canary ", "Green"])
    expect(scoreQuiz([fair], [{ number: 1, answer: "CANARY" }]).questions[0]?.isCorrect).toBe(true)
  })

  it("an empty or blank answer is never right, even to an empty stored answer", () => {
    expect(scoreQuiz([cloze(1, "")], [{ number: 1, answer: "   " }]).questions[0]?.isCorrect).toBe(false)
  })
})

describe("scoring a quiz", () => {
  it("4 of 5 right is 0.8, passed, and says so in one line; every row keeps the answer, the right answer and why", () => {
    const scored = scoreQuiz(five, [
      { number: 5, answer: "monday" },
      { number: 1, answer: "30 minutes" },
      { number: 2, answer: "Canary" },
      { number: 3, answer: "a second engineer" },
      { number: 4, answer: "90 Days" }
    ])
    expect(scored.score).toBe(0.8)
    expect(scored.passed).toBe(true)
    expect(scored.resultsSummary).toBe("4 of 5 correct (80%)")
    expect(scored.questions.map((row) => [row.number, row.isCorrect, row.score])).toEqual([
      [1, true, 1],
      [2, true, 1],
      [3, false, 0],
      [4, true, 1],
      [5, true, 1]
    ])
    expect(scored.questions[2]).toEqual({
      number: 3,
      question: "Fill in the blank 3: _____",
      isCorrect: false,
      score: 0,
      answer: "a second engineer",
      correctAnswer: "second engineer",
      explanation: "Because second engineer."
    })
  })

  it("3 of 5 is 0.6 and not passed; unanswered questions score 0 with a null answer", () => {
    const scored = scoreQuiz(five, [{ number: 1, answer: "30 minutes" }, { number: 2, answer: "Canary" }, {
      number: 5,
      answer: "Monday"
    }])
    expect(scored.score).toBe(0.6)
    expect(scored.passed).toBe(false)
    expect(scored.resultsSummary).toBe("3 of 5 correct (60%)")
    expect(scored.questions.find((row) => row.number === 4)?.answer).toBeNull()
  })

  it("the pass mark holds exactly at 0.8 for any quiz size (8 of 10, 12 of 15) and not just below", () => {
    const quiz = (n: number) => Array.from({ length: n }, (_, i) => cloze(i + 1, "x"))
    const right = (k: number) => Array.from({ length: k }, (_, i) => ({ number: i + 1, answer: "x" }))
    expect(scoreQuiz(quiz(10), right(8)).passed).toBe(true)
    expect(scoreQuiz(quiz(15), right(12)).passed).toBe(true)
    expect(scoreQuiz(quiz(15), right(11)).passed).toBe(false)
    expect(scoreQuiz(quiz(3), right(2)).resultsSummary).toBe("2 of 3 correct (67%)")
  })

  it("a quiz without questions scores 0 and is never passed", () => {
    expect(scoreQuiz([], [])).toMatchObject({ score: 0, passed: false, resultsSummary: "0 of 0 correct (0%)" })
    expect(resultsSummaryOf(0, 0)).toBe("0 of 0 correct (0%)")
  })
})

describe("which answer sets are refused", () => {
  it("a number the quiz does not have, or a question answered twice", () => {
    expect(answersProblem(five, [{ number: 6, answer: "x" }])).toBe("The quiz has no question 6")
    expect(answersProblem(five, [{ number: 2, answer: "x" }, { number: 2, answer: "y" }])).toBe(
      "Question 2 is answered more than once"
    )
    expect(answersProblem(five, [])).toBeNull()
    expect(answersProblem(five, [{ number: 1, answer: "" }, { number: 5, answer: "y" }])).toBeNull()
  })

  it("the body: numbers from 1, text without NUL and at most 1000 characters", () => {
    const decode = Schema.decodeUnknownEither(QuizAnswers)
    expect(Either.isRight(decode({ answers: [{ number: 1, answer: "a".repeat(1000) }] }))).toBe(true)
    for (const bad of [
      {},
      { answers: [{ number: 0, answer: "x" }] },
      { answers: [{ number: 1.5, answer: "x" }] },
      { answers: [{ number: 1, answer: 3 }] },
      { answers: [{ number: 1, answer: "a\u0000b" }] },
      { answers: [{ number: 1, answer: "a".repeat(1001) }] }
    ]) {
      expect(Either.isLeft(decode(bad)), JSON.stringify(bad).slice(0, 80)).toBe(true)
    }
  })

  it("stored questions decode from their jsonb form and reject a kind the product does not have", () => {
    expect(Either.isRight(Schema.decodeUnknownEither(StoredQuestions)(five))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(StoredQuestions)([{ ...five[0], kind: "essay" }]))).toBe(true)
  })
})
