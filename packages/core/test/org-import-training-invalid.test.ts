import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { decodeFixture } from "../src/org-import/decode.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { planImport } from "../src/org-import/plan.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

/** The problems of an import that must fail, after checking that it wrote nothing at all. */
const problemsOf = (input: OrgFixtureInput) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outcome = yield* Effect.either((yield* FixtureImporter).importOrganization(input))
    for (const table of ["organizations", "enrollments", "obligations", "pop_quizzes", "jobs"]) {
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`
      expect(rows[0]?.n, table).toBe(0)
    }
    if (Either.isRight(outcome)) throw new Error("the import was expected to fail")
    if (outcome.left._tag !== "FixtureInvalid") throw outcome.left
    return outcome.left.problems
  })

const base: OrgFixtureInput = {
  organization: { name: "Strict Co", plan: "starter" },
  people: [
    { key: "ann", name: "Ann", email: "ann@strict.example", role: "admin" },
    { key: "bo", name: "Bo", email: "bo@strict.example", role: "viewer" },
    { key: "cy", name: "Cy", email: "cy@strict.example", role: "external" }
  ],
  spaces: [{ key: "s", category: "operations", name: "S", topics: [{ key: "t", name: "T", items: [{ key: "i", name: "I", kind: "fact" }] }] }],
  content: [
    { key: "doc", title: "Doc", chapters: [{ text: "Text." }] },
    { key: "draft", title: "Draft", status: "draft", body: "Later." },
    { key: "adminsOnly", title: "Admins only", visibility: "admins", chapters: [{ text: "Secret." }] },
    { key: "crew", title: "Crew notes", visibility: "teams", teams: ["crew"], chapters: [{ text: "Crew." }] }
  ],
  teams: [{ key: "crew", name: "Crew", members: [{ person: "ann" }] }],
  lessons: [{ key: "l", title: "L", content: ["doc"] }, { key: "mine", title: "Mine", personalFor: "ann", content: ["doc"] }]
}

const withTraining = (training: Partial<OrgFixtureInput>): OrgFixtureInput => ({ ...base, ...training })

layer(TestLayer)("fixture import: training sections that break a rule", (it) => {
  it("the base fixture of this file is valid on its own (planned, not written)", () => {
    const decoded = decodeFixture(base)
    expect(decoded.problems).toEqual([])
    expect(Either.isRight(planImport(decoded, new Date()))).toBe(true)
  })

  it.effect("unknown keys and unknown fields are refused with their path; nothing is written", () =>
    Effect.gen(function*() {
      const problems = yield* problemsOf(withTraining({
        reviews: [{ about: "nobody", author: "ghost", reviewedAt: "2026-01-01T00:00:00Z" }],
        retrainingPolicies: [{ lesson: "nolesson", intervalDays: 30 }],
        mastery: [{ person: "bo", topic: "notopic", level: "MASTERED" }],
        enrollments: [{ person: "bo", lesson: "unknown", quiz: { questions: [{ number: 1, kind: "cloze", question: "Q?", correctAnswer: "A", topic: "zz" }] } }],
        obligations: [{ person: "bo", item: "noitem", assignedBy: "ghost" }],
        popQuizzes: [{ key: "p", content: "nocontent", dueDate: "2099-01-01T00:00:00Z", sentBy: "ghost", recipients: [{ person: "nobody" }] }]
      }))
      expect(problems).toEqual([
        `reviews[0].about: unknown person key "nobody"`,
        `reviews[0].author: unknown person key "ghost"`,
        `retrainingPolicies[0].lesson: unknown lesson key "nolesson"`,
        `mastery[0].topic: unknown topic key "notopic"`,
        `enrollments[0].lesson: unknown lesson key "unknown"`,
        `enrollments[0].quiz.questions[0].topic: unknown topic key "zz"`,
        `obligations[0].item: unknown item key "noitem"`,
        `obligations[0].assignedBy: unknown person key "ghost"`,
        `popQuizzes[0].content: unknown content key "nocontent"`,
        `popQuizzes[0].sentBy: unknown person key "ghost"`,
        `popQuizzes[0].recipients[0].person: unknown person key "nobody"`
      ])
      const misspelt = yield* problemsOf(withTraining({
        enrollments: [{ person: "bo", lesson: "l", complete: true } as never, { person: "bo", lesson: "l", status: "completed", quiz: { questions: [] } }]
      }))
      expect(misspelt).toEqual([
        expect.stringMatching(/^enrollments\[0\]\.complete: is not a field here/),
        expect.stringMatching(/^enrollments\[1\]\.quiz\.questions: /)
      ])
    }))

  it.effect("an obligation names exactly one of lesson, topic and item, of a kind that fits it", () =>
    Effect.gen(function*() {
      const problems = yield* problemsOf(withTraining({
        obligations: [
          { person: "bo", lesson: "l", topic: "t" },
          { person: "bo" },
          { person: "bo", lesson: "l", kind: "knowledge" },
          { person: "bo", item: "i", kind: "retraining" },
          { person: "bo", lesson: "mine" },
          { person: "bo", topic: "t", retrainingResetsClock: true }
        ]
      }))
      expect(problems).toEqual([
        "obligations[0]: names exactly one of lesson, topic or item (this one names lesson and topic)",
        "obligations[1]: names exactly one of lesson, topic or item (this one names none)",
        "obligations[2].kind: a knowledge obligation is owed on a topic or an item",
        `obligations[3].kind: an obligation of kind "retraining" is owed on a lesson`,
        `obligations[4].lesson: lesson "mine" was generated for a single person and cannot be assigned`,
        "obligations[5].retrainingResetsClock: only a retraining obligation has one"
      ])
    }))

  it.effect("one active obligation per person and thing, one enrollment in progress per person and lesson (the partial unique indexes)", () =>
    Effect.gen(function*() {
      const problems = yield* problemsOf(withTraining({
        obligations: [
          { person: "bo", topic: "t" },
          { person: "bo", topic: "t", status: "completed" },
          { person: "bo", topic: "t", required: false },
          { person: "ann", topic: "t" }
        ],
        enrollments: [
          { person: "bo", lesson: "l" },
          { person: "bo", lesson: "l", status: "completed" },
          { person: "bo", lesson: "l" }
        ],
        mastery: [{ person: "bo", topic: "t", level: "NONE" }, { person: "bo", topic: "t", level: "PARTIAL" }],
        retrainingPolicies: [{ lesson: "l", intervalDays: 10 }, { lesson: "l", intervalDays: 20 }, { lesson: "mine", intervalDays: 5 }]
      }))
      expect(problems).toEqual([
        `retrainingPolicies[1].lesson: lesson "l" already has a retraining policy (retrainingPolicies[0])`,
        `retrainingPolicies[2].lesson: lesson "mine" was generated for a single person and cannot have one`,
        `mastery[1].topic: "bo" already has a mastery of topic "t" (mastery[0])`,
        `enrollments[2].status: "bo" already has lesson "l" in progress (enrollments[0])`,
        `obligations[2].status: "bo" already owes topic "t" (active at obligations[0])`
      ])
    }))

  it.effect("dates keep their order, and each field belongs to the state that has it", () =>
    Effect.gen(function*() {
      const problems = yield* problemsOf(withTraining({
        enrollments: [
          { person: "bo", lesson: "l", status: "completed", enrolledAt: "2026-02-01T00:00:00Z", completedAt: "2026-01-01T00:00:00Z" },
          { person: "bo", lesson: "l", enrolledAt: "2026-02-01T00:00:00Z", startedAt: "2026-01-01T00:00:00Z", completedAt: "2026-03-01T00:00:00Z" },
          { person: "ann", lesson: "mine", status: "completed", enrolledAt: "2026-02-01T00:00:00Z", attempts: [{ score: 0.9, completedAt: "2026-01-01T00:00:00Z" }] },
          { person: "bo", lesson: "mine", status: "completed" }
        ],
        obligations: [
          { person: "bo", topic: "t", status: "cancelled", createdAt: "2026-02-01T00:00:00Z", endedAt: "2026-01-01T00:00:00Z" },
          { person: "ann", topic: "t", endedAt: "2026-01-01T00:00:00Z", endReason: "no", dueBasis: "duty", dueDateOverridden: true, needsReview: true },
          { person: "bo", item: "i", status: "completed", needsReview: true, dueDays: 3, dueDate: null }
        ]
      }))
      expect(problems).toEqual([
        "enrollments[0].completedAt: 2026-01-01T00:00:00.000Z is before enrolledAt (2026-02-01T00:00:00.000Z)",
        "enrollments[1].completedAt: only a completed enrollment has a completedAt",
        "enrollments[1].startedAt: 2026-01-01T00:00:00.000Z is before enrolledAt (2026-02-01T00:00:00.000Z)",
        "enrollments[2].attempts[0].completedAt: 2026-01-01T00:00:00.000Z is before the enrollment's enrolledAt (2026-02-01T00:00:00.000Z)",
        `enrollments[3].lesson: lesson "mine" was generated for "ann" only`,
        "obligations[0].endedAt: 2026-01-01T00:00:00.000Z is before createdAt (2026-02-01T00:00:00.000Z)",
        "obligations[1].endedAt: an active obligation has not ended",
        "obligations[1].endReason: only a cancelled or waived obligation has an end reason",
        "obligations[1].dueBasis: given without dueDays",
        "obligations[1].dueDateOverridden: a date set by hand needs a dueDate",
        "obligations[1].needsReview: only a due date counted in days (dueDays) can need a review",
        "obligations[2].dueDate: null, yet dueDays counts a due date",
        "obligations[2].needsReview: only an active obligation can need a review"
      ])
    }))

  it.effect("quiz questions are numbered in order and offer their answer; pop quizzes follow the plan, the content and the recipient's state", () =>
    Effect.gen(function*() {
      const problems = yield* problemsOf(withTraining({
        enrollments: [{
          person: "bo",
          lesson: "l",
          quiz: {
            questions: [
              { number: 2, kind: "multiple_choice", question: "Q1?", choices: ["a", "b"], correctAnswer: "c" },
              { number: 2, kind: "cloze", question: "Q2 ____?", choices: ["x"], correctAnswer: "x" },
              { number: 3, kind: "multiple_choice", question: "Q3?", choices: ["only"], correctAnswer: "only" }
            ]
          }
        }],
        popQuizzes: [
          {
            key: "hard",
            content: "draft",
            difficulty: "CHALLENGING",
            createdAt: "2026-02-01T00:00:00Z",
            dueDate: "2026-01-01T00:00:00Z",
            recipients: [
              { person: "bo", status: "COMPLETED" },
              { person: "bo", status: "STARTED", score: 0.5, completedAt: "2026-02-02T00:00:00Z" }
            ]
          },
          { key: "hard", content: "doc", dueDate: "2099-01-01T00:00:00Z" }
        ]
      }))
      expect(problems).toEqual([
        "enrollments[0].quiz.questions[0].number: questions are numbered 1, 2, 3... in order; expected 1",
        "enrollments[0].quiz.questions[0].correctAnswer: the correct answer must be one of the choices",
        "enrollments[0].quiz.questions[1].choices: a cloze question offers no choices",
        "enrollments[0].quiz.questions[2].choices: a multiple-choice question offers at least two choices",
        `popQuizzes[0].content: content "draft" is draft; a pop quiz is on published content`,
        "popQuizzes[0].difficulty: the starter plan allows SIMPLE, MODERATE",
        "popQuizzes[0].dueDate: 2026-01-01T00:00:00.000Z is before createdAt (2026-02-01T00:00:00.000Z)",
        "popQuizzes[0].recipients[0].score: a COMPLETED recipient has a score",
        `popQuizzes[0].recipients[1].person: "bo" is listed twice in this pop quiz`,
        "popQuizzes[0].recipients[1].score: only a COMPLETED recipient has a score",
        "popQuizzes[0].recipients[1].completedAt: only a COMPLETED recipient has a completedAt",
        `popQuizzes[1].key: duplicate pop quiz key "hard" (already used at popQuizzes[0])`
      ])
    }))

  it.effect("everyone a pop quiz reaches can read its content", () =>
    Effect.gen(function*() {
      const problems = yield* problemsOf(withTraining({
        popQuizzes: [
          { key: "a", content: "adminsOnly", dueDate: "2099-01-01T00:00:00Z", recipients: [{ person: "ann" }, { person: "bo" }] },
          { key: "b", content: "crew", dueDate: "2099-01-01T00:00:00Z", recipients: [{ person: "ann" }, { person: "bo" }] },
          { key: "c", content: "doc", dueDate: "2099-01-01T00:00:00Z", recipients: [{ person: "bo" }, { person: "cy" }] }
        ]
      }))
      expect(problems).toEqual([
        `popQuizzes[0].recipients[1].person: "bo" cannot read content "adminsOnly"`,
        `popQuizzes[1].recipients[1].person: "bo" cannot read content "crew"`,
        `popQuizzes[2].recipients[1].person: "cy" cannot read content "doc"`
      ])
    }))
})
