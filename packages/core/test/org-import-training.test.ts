import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"

const TestLayer = FixtureImporter.Default.pipe(Layer.provideMerge(TestDatabaseLive))

const question = (number: number, answer: string) => ({
  number,
  kind: "multiple_choice" as const,
  question: `Question ${number}?`,
  choices: [answer, "Something else"],
  correctAnswer: answer,
  explanation: `Because ${answer}.`,
  topic: "lifting"
})

/** A small organization with one record of each training section, dated so every default can be told apart. */
export const learnCo: OrgFixtureInput = {
  organization: { name: "Learn Co", plan: "starter" },
  people: [
    { key: "ann", name: "Ann Admin", email: "ann@learn.example", role: "admin" },
    { key: "bo", name: "Bo Learner", email: "bo@learn.example", role: "viewer", manager: "ann" }
  ],
  spaces: [{ key: "floor", category: "operations", name: "Floor", topics: [{ key: "lifting", name: "Lifting", items: [{ key: "bend", name: "Bend the knees", kind: "policy" }] }] }],
  content: [{ key: "guide", title: "Lifting Guide", chapters: [{ text: "Bend the knees when lifting." }] }],
  lessons: [{ key: "lift", title: "Safe lifting", content: ["guide"] }],
  reviews: [
    { about: "bo", author: "ann", reviewedAt: "2026-03-01T10:00:00Z", note: "Solid quarter" },
    { about: "bo", reviewedAt: "2026-02-01T10:00:00Z" }
  ],
  retrainingPolicies: [{ lesson: "lift", intervalDays: 30 }],
  mastery: [{ person: "bo", topic: "lifting", level: "PARTIAL", provenAt: "2026-03-02T00:00:00Z" }],
  enrollments: [
    {
      key: "done",
      person: "bo",
      lesson: "lift",
      status: "completed",
      enrolledAt: "2026-03-01T00:00:00Z",
      completedAt: "2026-03-03T00:00:00Z",
      quiz: { questions: [question(1, "Knees"), question(2, "Back straight")] },
      attempts: [{ score: 0.5, completedAt: "2026-03-02T00:00:00Z" }, { score: 1 }]
    },
    { key: "again", person: "bo", lesson: "lift" }
  ],
  obligations: [
    { key: "owed", person: "bo", lesson: "lift", dueDays: 10, createdAt: "2026-03-05T00:00:00Z", assignedBy: "ann" },
    { key: "known", person: "bo", topic: "lifting", status: "waived", endReason: "Certified elsewhere", endedBy: "ann" }
  ],
  popQuizzes: [
    {
      key: "pop",
      content: "guide",
      dueDate: "2099-01-01T00:00:00Z",
      sentBy: "ann",
      recipients: [{ person: "bo", status: "COMPLETED", score: 0.5, completedAt: "2026-03-04T00:00:00Z" }, { person: "ann" }]
    }
  ]
}

layer(TestLayer)("fixture import: training sections", (it) => {
  it.effect("each training section imports into its rows, with ids by key in the result", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const result = yield* (yield* FixtureImporter).importOrganization(learnCo)
      const org = result.organizationId
      const { ann, bo } = result.ids.people as Record<string, string>
      expect(Object.keys(result.ids.enrollments).sort()).toEqual(["again", "done"])
      expect(result.ids.enrollments["done"]).toMatch(/^enr_/)
      expect(result.ids.obligations["owed"]).toMatch(/^obl_/)
      expect(result.ids.popQuizzes["pop"]).toMatch(/^pq_/)

      const reviews = yield* sql<{ id: string; user_id: string; author_id: string | null; reviewed_at: Date; note: string | null }>`
        SELECT id, user_id, author_id, reviewed_at, note FROM member_reviews WHERE org_id = ${org} ORDER BY reviewed_at`
      expect(reviews.map((row) => [row.user_id, row.author_id, row.reviewed_at.toISOString(), row.note])).toEqual([
        [bo, null, "2026-02-01T10:00:00.000Z", null],
        [bo, ann, "2026-03-01T10:00:00.000Z", "Solid quarter"]
      ])
      expect(reviews[0]?.id).toMatch(/^rev_/)

      const policies = yield* sql`SELECT lesson_id, interval_days, completion_mode FROM lesson_retraining_policies WHERE org_id = ${org}`
      expect(policies).toEqual([{ lesson_id: result.ids.lessons["lift"], interval_days: 30, completion_mode: "full_retake" }])

      const mastery = yield* sql<{ user_id: string; topic_id: string; level: string; proven_at: Date }>`
        SELECT user_id, topic_id, level, proven_at FROM mastery WHERE org_id = ${org}`
      expect(mastery.map((row) => [row.user_id, row.topic_id, row.level, row.proven_at.toISOString()])).toEqual([
        [bo, result.ids.topics["lifting"], "PARTIAL", "2026-03-02T00:00:00.000Z"]
      ])

      const done = result.ids.enrollments["done"] ?? ""
      const enrollments = yield* sql<{ id: string; status: string; started_at: Date | null; completed_at: Date | null; score: number | null; retrain_at: Date | null }>`
        SELECT id, status, started_at, completed_at, score, retrain_at FROM enrollments WHERE org_id = ${org} ORDER BY status`
      expect(enrollments.map((row) => [row.id, row.status, row.started_at?.toISOString() ?? null, row.completed_at?.toISOString() ?? null, row.score, row.retrain_at?.toISOString() ?? null])).toEqual([
        // Completed: started when enrolled, the last attempt's score, retrained 30 days after completion (the lesson's policy).
        [done, "completed", "2026-03-01T00:00:00.000Z", "2026-03-03T00:00:00.000Z", 1, "2026-04-02T00:00:00.000Z"],
        [result.ids.enrollments["again"], "in_progress", null, null, null, null]
      ])

      const quizzes = yield* sql<{ enrollment_id: string; status: string; difficulty: string; questions: unknown }>`
        SELECT enrollment_id, status, difficulty, questions FROM enrollment_quizzes WHERE org_id = ${org} ORDER BY status DESC`
      expect(quizzes.map((row) => [row.enrollment_id, row.status, row.difficulty])).toEqual([
        [done, "READY", "MODERATE"],
        [result.ids.enrollments["again"], "PENDING", "MODERATE"]
      ])
      expect(quizzes[0]?.questions).toEqual([
        { number: 1, kind: "multiple_choice", question: "Question 1?", choices: ["Knees", "Something else"], correctAnswer: "Knees", explanation: "Because Knees.", topicId: result.ids.topics["lifting"] },
        { number: 2, kind: "multiple_choice", question: "Question 2?", choices: ["Back straight", "Something else"], correctAnswer: "Back straight", explanation: "Because Back straight.", topicId: result.ids.topics["lifting"] }
      ])
      expect(quizzes[1]?.questions).toBeNull()

      const attempts = yield* sql<{ user_id: string; completed_at: Date; score: number; passed: boolean; results_summary: string; questions: ReadonlyArray<{ isCorrect: boolean; answer: string | null }> }>`
        SELECT user_id, completed_at, score, passed, results_summary, questions FROM quiz_attempts WHERE org_id = ${org} AND enrollment_id = ${done} ORDER BY completed_at`
      expect(attempts.map((row) => [row.user_id, row.completed_at.toISOString(), row.score, row.passed, row.results_summary])).toEqual([
        [bo, "2026-03-02T00:00:00.000Z", 0.5, false, "1 of 2 correct"],
        [bo, "2026-03-03T00:00:00.000Z", 1, true, "2 of 2 correct"]
      ])
      expect(attempts[0]?.questions.map((row) => [row.isCorrect, row.answer])).toEqual([[true, "Knees"], [false, "Something else"]])

      const obligations = yield* sql<{ id: string; item_type: string; item_id: string; kind: string; status: string; due_date: Date | null; due_days: number | null; due_basis: string | null; end_reason: string | null; ended_by: string | null; assigned_by: string | null }>`
        SELECT id, item_type, item_id, kind, status, due_date, due_days, due_basis, end_reason, ended_by, assigned_by FROM obligations WHERE org_id = ${org} ORDER BY item_type`
      expect(obligations.map((row) => [row.id, row.item_type, row.item_id, row.kind, row.status, row.due_date?.toISOString() ?? null, row.due_days, row.due_basis, row.end_reason, row.ended_by, row.assigned_by])).toEqual([
        [result.ids.obligations["owed"], "lesson", result.ids.lessons["lift"], "assignment", "active", "2026-03-15T00:00:00.000Z", 10, "assignment", null, null, ann],
        [result.ids.obligations["known"], "topic", result.ids.topics["lifting"], "knowledge", "waived", null, null, null, "Certified elsewhere", ann, null]
      ])

      const quiz = yield* sql`SELECT id, content_id, title, prompt, difficulty, sent_by FROM pop_quizzes WHERE org_id = ${org}`
      expect(quiz).toEqual([{
        id: result.ids.popQuizzes["pop"],
        content_id: result.ids.content["guide"],
        title: "Pop quiz: Lifting Guide",
        prompt: "Answer a few questions about \"Lifting Guide\".",
        difficulty: "MODERATE",
        sent_by: ann
      }])
      const recipients = yield* sql<{ id: string; user_id: string; status: string; generation_status: string; score: number | null; completed_at: Date | null; questions: ReadonlyArray<unknown> | null }>`
        SELECT id, user_id, status, generation_status, score, completed_at, questions FROM pop_quiz_recipients WHERE org_id = ${org} ORDER BY status`
      expect(recipients.map((row) => [row.user_id, row.status, row.generation_status, row.score, row.completed_at?.toISOString() ?? null])).toEqual([
        [bo, "COMPLETED", "READY", 0.5, "2026-03-04T00:00:00.000Z"],
        [ann, "not_started", "PENDING", null, null]
      ])
      expect(recipients[0]?.questions).toHaveLength(2)
      expect(recipients.every((row) => row.id.startsWith("pqr_"))).toBe(true)

      // Work for the workers: the quiz left to prepare and the questions left to write, nothing else.
      const jobs = yield* sql<{ kind: string; subject_id: string; status: string }>`
        SELECT kind, subject_id, status FROM jobs WHERE org_id = ${org} ORDER BY kind`
      expect(jobs).toEqual([
        { kind: "pop-quiz.prepare", subject_id: recipients[1]?.id, status: "PENDING" },
        { kind: "quiz.prepare", subject_id: result.ids.enrollments["again"], status: "PENDING" }
      ])
    }))

  it.effect("defaults: enrolled at the earliest date given, completed now, knowledge or assignment by what is owed, system-sent quizzes, fixed questions for a started recipient", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const result = yield* (yield* FixtureImporter).importOrganization({
        ...learnCo,
        reviews: [],
        retrainingPolicies: [],
        mastery: [{ person: "bo", topic: "lifting", level: "MASTERED" }],
        enrollments: [
          { key: "early", person: "bo", lesson: "lift", startedAt: "2026-01-05T00:00:00Z", attempts: [{ score: 0.7, completedAt: "2026-01-02T00:00:00Z" }] },
          { key: "now", person: "ann", lesson: "lift", status: "completed", attempts: [{ score: 0.9, passed: false }] }
        ],
        obligations: [
          { key: "lesson", person: "bo", lesson: "lift" },
          { key: "item", person: "bo", item: "bend", required: false, dueDate: "2026-06-01T00:00:00Z", dueDateOverridden: true },
          { key: "again", person: "bo", lesson: "lift", kind: "retraining", status: "completed", dueDays: 5, dueBasis: "duty", dueBasisAt: "2026-01-01T00:00:00Z" }
        ],
        popQuizzes: [{
          key: "system",
          content: "guide",
          title: "Spot check",
          prompt: "Two questions.",
          dueDate: "2099-01-01T00:00:00Z",
          recipients: [{ person: "bo", status: "STARTED" }, { person: "ann", questions: [{ number: 1, kind: "cloze", question: "Bend the ____.", correctAnswer: "knees" }] }]
        }]
      })
      const org = result.organizationId
      const enrollments = yield* sql<{ id: string; enrolled_at: Date; started_at: Date | null; completed_at: Date | null; score: number | null; retrain_at: Date | null }>`
        SELECT id, enrolled_at, started_at, completed_at, score, retrain_at FROM enrollments WHERE org_id = ${org}`
      const early = enrollments.find((row) => row.id === result.ids.enrollments["early"])
      // The earliest of startedAt and the attempts: an enrollment never starts after what happened in it.
      expect([early?.enrolled_at.toISOString(), early?.started_at?.toISOString(), early?.score]).toEqual(["2026-01-02T00:00:00.000Z", "2026-01-05T00:00:00.000Z", 0.7])
      const completed = enrollments.find((row) => row.id === result.ids.enrollments["now"])
      // The import's one clock: every default below is this instant.
      const now = completed?.enrolled_at ?? new Date(0)
      expect(now.getFullYear()).toBeGreaterThanOrEqual(2026)
      expect([completed?.enrolled_at, completed?.started_at, completed?.completed_at, completed?.score, completed?.retrain_at]).toEqual([now, now, now, 0.9, null])
      const attempts = yield* sql<{ passed: boolean; results_summary: string; questions: ReadonlyArray<unknown>; completed_at: Date }>`
        SELECT passed, results_summary, questions, completed_at FROM quiz_attempts WHERE org_id = ${org} AND enrollment_id = ${result.ids.enrollments["now"]}`
      expect(attempts).toEqual([{ passed: false, results_summary: "Scored 90%", questions: [], completed_at: now }])

      const obligations = yield* sql<{ id: string; kind: string; required: boolean; due_date: Date | null; due_date_overridden: boolean; due_basis: string | null; due_basis_at: Date | null; retraining_resets_clock: boolean | null; completed_at: Date | null; created_at: Date }>`
        SELECT id, kind, required, due_date, due_date_overridden, due_basis, due_basis_at, retraining_resets_clock, completed_at, created_at FROM obligations WHERE org_id = ${org}`
      const obligation = (key: string) => obligations.find((row) => row.id === result.ids.obligations[key])
      expect(obligation("lesson")).toMatchObject({ kind: "assignment", required: true, due_date: null, due_basis: null, retraining_resets_clock: null, completed_at: null, created_at: now })
      expect(obligation("item")).toMatchObject({ kind: "knowledge", required: false, due_date: new Date("2026-06-01T00:00:00Z"), due_date_overridden: true })
      expect(obligation("again")).toMatchObject({
        kind: "retraining",
        due_basis: "duty",
        due_basis_at: new Date("2026-01-01T00:00:00Z"),
        due_date: new Date("2026-01-06T00:00:00Z"),
        retraining_resets_clock: false,
        completed_at: now
      })

      const quiz = yield* sql`SELECT title, prompt, sent_by, difficulty FROM pop_quizzes WHERE org_id = ${org}`
      expect(quiz).toEqual([{ title: "Spot check", prompt: "Two questions.", sent_by: null, difficulty: "MODERATE" }])
      const recipients = yield* sql<{ user_id: string; generation_status: string; generator: string | null; started_at: Date | null; questions: ReadonlyArray<{ kind: string; correctAnswer: string }> }>`
        SELECT user_id, generation_status, generator, started_at, questions FROM pop_quiz_recipients WHERE org_id = ${org} ORDER BY status`
      expect(recipients.map((row) => [row.user_id, row.generation_status, row.generator, row.started_at, row.questions.map((q) => [q.kind, q.correctAnswer])])).toEqual([
        [result.ids.people["bo"], "READY", "fixture", now, [["multiple_choice", "Lifting Guide"], ["cloze", "Lifting Guide"]]],
        [result.ids.people["ann"], "READY", "fixture", null, [["cloze", "knees"]]]
      ])
      const jobs = yield* sql<{ kind: string }>`SELECT kind FROM jobs WHERE org_id = ${org}`
      expect(jobs.map((job) => job.kind)).toEqual(["quiz.prepare", "quiz.prepare"])
      const mastery = yield* sql<{ proven_at: Date }>`SELECT proven_at FROM mastery WHERE org_id = ${org}`
      expect(mastery).toEqual([{ proven_at: now }])
    }))
})
