import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

/** The training reads on acme, the organization every test shares (packages/core/testing/acme-training.ts). */
const setup = acmeCallerMatrix

const at = (date: string) => `${date}T09:00:00.000Z`
const idsOf = (response: { json: any }): Array<string> => response.json.data.map((row: { id: string }) => row.id)

layer(TestServerLive, { excludeTestServices: true })("training reads on acme's training", (it) => {
  it.effect("Victor's own obligations and enrollments, as acme-training.ts records them", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const { enrollments, obligations } = result.ids
      const owed = yield* raw("GET", "/v1/me/obligations", { token: tokens.viewer })
      // His cancelled Safety obligation is not listed; Team drills and Deployments (30 days from March 1) are overdue.
      expect(owed.json.data.map((row: any) => [row.id, row.status, row.overdue])).toEqual([
        [obligations.victorRetraining, "active", false],
        [obligations.victorHotfix, "active", false],
        [obligations.victorDeploy, "active", true],
        [obligations.victorDrills, "active", true],
        [obligations.victorOnboarding, "completed", false]
      ])
      const taken = yield* raw("GET", "/v1/me/enrollments", { token: tokens.viewer })
      expect(taken.json.data.map((row: any) => [row.id, row.title, row.status, row.score, row.dueDate])).toEqual([
        [enrollments.victorCoaching, "Personal Coaching for Victor", "in_progress", undefined, null],
        [enrollments.victorDrills, "Team drills", "in_progress", 0.5, at("2026-02-01")],
        // The active retraining obligation's date, set by hand.
        [enrollments.victorOnboarding, "Onboarding", "completed", 0.8, "2099-06-01T00:00:00.000Z"]
      ])
    }))

  it.effect("the organization's pop quizzes newest first, with their senders and counts", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const quizzes = result.ids.popQuizzes
      const response = yield* raw("GET", "/v1/pop-quizzes", { token: tokens.admin })
      expect(response.json.data.map((row: any) => [row.id, row.sentBy?.name ?? null, row.recipientCount, row.completedCount])).toEqual([
        [quizzes.opsQuiz, "Olivia Owner", 2, 1],
        [quizzes.safetyQuiz, null, 2, 1],
        [quizzes.deployQuiz, "adam Admin", 4, 2]
      ])
      expect(idsOf(yield* raw("GET", "/v1/me/pop-quizzes", { token: tokens.viewer }))).toEqual([quizzes.safetyQuiz, quizzes.deployQuiz])
    }))

  it.effect("Victor's progress row: an admin sees the newest review about him, Victor only the one he wrote", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const victor = result.ids.people.victor
      const admin = yield* raw("GET", "/v1/members/progress?query=victor", { token: tokens.admin })
      expect(admin.json.data).toEqual([expect.objectContaining({ id: victor, lessonCount: 3, popQuizCount: 2, lastReviewDate: at("2026-04-01") })])
      const own = yield* raw("GET", "/v1/members/progress", { token: tokens.viewer })
      expect(own.json.data).toEqual([expect.objectContaining({ id: victor, lastReviewDate: at("2026-02-15") })])
    }))

  it.effect("Olivia, Victor's manager and the owner, reads his progress; the quiz results of his onboarding, newest first", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const progress = yield* raw("GET", `/v1/people/${result.ids.people.victor}/progress`, { token: tokens.owner })
      expect(progress.json.summary).toEqual({ enrollmentCount: 3, completedCount: 1, obligationCount: 5, overdueCount: 2 })
      const results = yield* raw("GET", `/v1/enrollments/${result.ids.enrollments.victorOnboarding}/quiz-results`, { token: tokens.owner })
      expect(results.json.data.map((row: any) => [row.completedAt, row.score, row.questions.length])).toEqual([
        [at("2025-12-01"), 0.8, 5],
        [at("2025-11-28"), 0.6, 5]
      ])
    }))
})
