import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { generateLocally } from "@tks/adapters/questions/local"
import { QuestionGenerationFailed, type QuestionInput } from "@tks/adapters/questions/port"
import { normalizeAnswer, type QuizDifficulty, type StoredQuestion, StoredQuestions } from "@tks/domain/quiz"
import { deploymentAndSafety, travelPolicy } from "./support/quiz-material.js"

const generate = (input: QuestionInput) => generateLocally(input)

const kinds = (questions: ReadonlyArray<StoredQuestion>) => questions.map((question) => question.kind)
const clozeCount = (questions: ReadonlyArray<StoredQuestion>) => kinds(questions).filter((kind) => kind === "cloze").length

describe("the local question generator", () => {
  it.effect("the same input and seed give the same questions; other seeds give other quizzes", () =>
    Effect.gen(function*() {
      const first = yield* generate(travelPolicy)
      const again = yield* generate({ ...travelPolicy })
      expect(again).toEqual(first)
      const others = yield* Effect.forEach(["enr_a", "enr_b", "enr_c", "enr_d"], (seed) => generate({ ...travelPolicy, seed }))
      expect(others.some((quiz) => JSON.stringify(quiz) !== JSON.stringify(first))).toBe(true)
    }))

  it.effect("questions are numbered from 1, decode as stored questions, and are as many as asked when the content allows", () =>
    Effect.gen(function*() {
      for (const input of [deploymentAndSafety, travelPolicy]) {
        const questions = yield* generate(input)
        expect(questions).toHaveLength(input.count)
        expect(questions.map((question) => question.number)).toEqual(Array.from({ length: input.count }, (_, i) => i + 1))
        expect(() => Schema.decodeUnknownSync(StoredQuestions)(JSON.parse(JSON.stringify(questions)))).not.toThrow()
        expect(new Set(questions.map((question) => normalizeAnswer(question.correctAnswer))).size).toBe(questions.length)
      }
      const fewer = yield* generate({ ...deploymentAndSafety, count: 2 })
      expect(fewer).toHaveLength(2)
    }))

  it.effect("a multiple-choice question has distinct choices, the correct answer among them once; a cloze blanks its answer out of a sentence of the material", () =>
    Effect.gen(function*() {
      const material = [...travelPolicy.chapters.map((chapter) => chapter.text), ...travelPolicy.items.map((item) => item.body)].join(" ")
      for (const seed of ["s1", "s2", "s3"]) {
        for (const question of yield* generate({ ...travelPolicy, seed, difficulty: "CHALLENGING" })) {
          if (question.kind === "multiple_choice") {
            expect(new Set(question.choices.map(normalizeAnswer)).size).toBe(question.choices.length)
            expect(question.choices.filter((choice) => choice === question.correctAnswer)).toHaveLength(1)
          } else {
            expect(question.choices).toEqual([])
            expect(question.question).toContain("_____")
            expect(question.question.replace("_____", question.correctAnswer).replace("Fill in the blank: ", "")).toSatisfy(
              (sentence: string) => material.includes(sentence)
            )
          }
          expect(question.explanation).toContain(question.correctAnswer)
        }
      }
    }))

  it.effect("distractors are plausible: a number is offered among numbers, an item's name among other items' names", () =>
    Effect.gen(function*() {
      const itemNames = new Set(deploymentAndSafety.items.map((item) => normalizeAnswer(item.name)))
      let numbers = 0
      let names = 0
      for (const seed of ["a", "b", "c", "d", "e", "f"]) {
        for (const input of [{ ...travelPolicy, seed, difficulty: "SIMPLE" as const }, { ...deploymentAndSafety, seed, difficulty: "SIMPLE" as const }]) {
          for (const question of yield* generate(input)) {
            if (question.kind !== "multiple_choice") continue
            if (/^[$€£]?\d/.test(question.correctAnswer)) {
              numbers++
              for (const choice of question.choices) expect(choice, question.question).toMatch(/\d/)
            }
            if (input.title === deploymentAndSafety.title && itemNames.has(normalizeAnswer(question.correctAnswer))) {
              names++
              for (const choice of question.choices) expect(itemNames.has(normalizeAnswer(choice)), choice).toBe(true)
            }
          }
        }
      }
      expect(numbers).toBeGreaterThan(0)
      expect(names).toBeGreaterThan(0)
    }))

  it.effect("a choice takes the answer's initial case, so case does not give the answer away", () =>
    Effect.gen(function*() {
      for (const seed of ["a", "b", "c", "d"]) {
        for (const question of yield* generate({ ...deploymentAndSafety, seed, difficulty: "SIMPLE" })) {
          if (question.kind !== "multiple_choice" || !question.question.startsWith("Which answer completes")) continue
          const lower = (text: string) => text.charAt(0) === text.charAt(0).toLowerCase()
          for (const choice of question.choices) expect(lower(choice), question.choices.join(" | ")).toBe(lower(question.correctAnswer))
        }
      }
    }))

  it.effect("difficulty sets the choices (3, 4, 4, 5) and the share of cloze questions (none when SIMPLE, most when ADVANCED)", () =>
    Effect.gen(function*() {
      const expected: Record<QuizDifficulty, number> = { SIMPLE: 3, MODERATE: 4, CHALLENGING: 4, ADVANCED: 5 }
      const clozes: Partial<Record<QuizDifficulty, number>> = {}
      for (const difficulty of ["SIMPLE", "MODERATE", "CHALLENGING", "ADVANCED"] as const) {
        const questions = yield* generate({ ...travelPolicy, difficulty })
        for (const question of questions.filter((question) => question.kind === "multiple_choice")) {
          expect(question.choices, difficulty).toHaveLength(expected[difficulty])
        }
        clozes[difficulty] = clozeCount(questions)
      }
      expect(clozes.SIMPLE).toBe(0)
      expect(clozes.MODERATE).toBeGreaterThan(0)
      expect(clozes.ADVANCED).toBeGreaterThan(clozes.MODERATE!)
    }))

  it.effect("questions about an item's sentence or an item's kind test that item's topic", () =>
    Effect.gen(function*() {
      const questions = (yield* Effect.forEach(["a", "b", "c", "d", "e"], (seed) =>
        generate({ ...deploymentAndSafety, seed, count: 8, difficulty: "SIMPLE" }))).flat()
      const about = (sentence: string) => questions.filter((question) => question.explanation.includes(sentence))
      expect(about("The canary step sends 5%").length).toBeGreaterThan(0)
      expect(about("First aid kits").length).toBeGreaterThan(0)
      for (const question of about("The canary step sends 5%")) expect(question.topicId).toBe("top_deploy")
      for (const question of about("First aid kits")) expect(question.topicId).toBe("top_safety")
      for (const question of about("is a process")) {
        expect(question.topicId).toBe(deploymentAndSafety.items.find((item) => item.name === question.correctAnswer)?.topicId)
      }
      for (const question of questions) expect([null, "top_deploy", "top_safety"]).toContain(question.topicId)
    }))

  it.effect("content with nothing to ask about (no sentences, no items) fails with the reason", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(generate({ ...deploymentAndSafety, chapters: [{ headline: "Empty", text: "Hi." }], items: [] }))
      expect(exit).toEqual(Exit.fail(new QuestionGenerationFailed({ reason: "the content has nothing to ask about (no usable sentences or items)" })))
    }))
})
