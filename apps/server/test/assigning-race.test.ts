import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { learnerKeys } from "@tks/core/testing/assigners"
import { assignersOnce, post, query, trainingState } from "./support/assigners.js"
import { TestServerLive } from "./support/server.js"

/**
 * The same lesson assigned 50 times at once to the same people (issue 8,
 * "Done means"): each person ends with exactly one enrollment, one active
 * obligation and one quiz being prepared, and is listed as newly assigned by
 * exactly one of the 50 answers. The requests carry different due dates;
 * the earliest wins (merging). Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL, where the requests really overlap.
 */
const setup = assignersOnce
const requests = 50
// Ten tokens of five requests each: a token may call the route 30 times a minute.
const tokens = 10

layer(TestServerLive, { excludeTestServices: true })("assigning one lesson 50 times in parallel", (it) => {
  it.effect("gives each person one enrollment and one active obligation, listed once; the earliest due date wins", () =>
    Effect.gen(function*() {
      const { freshToken, lessonId, userId } = yield* setup
      const lesson = lessonId("open")
      const people = [...learnerKeys.slice(0, 20).map(userId), userId("ann"), userId("cat")]
      const callers = yield* Effect.all(Array.from({ length: tokens }, () => freshToken("admin")))
      // Request i asks for a due date i days after the earliest, in shuffled order of arrival.
      const earliest = Date.parse("2031-01-01T00:00:00.000Z")
      const order = Array.from({ length: requests }, (_, i) => (i * 17) % requests)
      const responses = yield* Effect.all(
        order.map((i) =>
          post(`/v1/lessons/${lesson}/assignments`, callers[i % tokens], {
            audience: "users",
            userIds: i % 2 === 0 ? people : [...people].reverse(),
            due: { type: "date", date: new Date(earliest + i * 86_400_000).toISOString() }
          })
        ),
        { concurrency: "unbounded" }
      )
      for (const response of responses) expect(response.status, JSON.stringify(response.json)).toBe(200)

      const listed = responses.flatMap((response) => response.json.assigned.map((row: { userId: string }) => row.userId))
      expect([...listed].sort()).toEqual([...people].sort())

      const state = yield* trainingState(lesson)
      expect(state.enrollments).toEqual([...people].sort().map((id) => `${id} in_progress`))
      expect(state.obligations).toEqual([...people].sort().map((id) => `${id} active true 2031-01-01T00:00:00`))
      expect(state.quizzes).toBe(people.length)
      expect(state.quizJobs).toBe(people.length)
      // Told once each: an email, and a text for ann, who has a phone.
      expect(state.told).toEqual([...people.map((id) => `${id} email LessonAssigned`), `${userId("ann")} sms LessonAssigned`].sort())
      const enrollmentIds = responses.flatMap((response) => response.json.assigned.map((row: { enrollmentId: string }) => row.enrollmentId))
      const stored = yield* query((sql) => sql<{ id: string }>`SELECT id FROM enrollments WHERE lesson_id = ${lesson} ORDER BY id`)
      expect(stored.map((row) => row.id)).toEqual([...enrollmentIds].sort())
    }))
})
