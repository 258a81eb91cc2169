import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, execute, query, send, trainingState } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * PUT /v1/lessons/{id}/retraining-policy: recurring with an
 * interval (1 to 3650) and a mode, none to turn it off; organization admins
 * (permission to edit the lesson); single-person lessons refused; nothing
 * created for earlier completions.
 */
const setup = assignersOnce
const path = (lessonId: string) => `/v1/lessons/${lessonId}/retraining-policy`
const put = (lessonId: string, token: string | undefined, body: unknown) => send("PUT", path(lessonId), token, body)

const storedPolicy = (lessonId: string) =>
  query((sql) =>
    sql<{ interval_days: number; completion_mode: string; updated_by: string }>`
      SELECT interval_days, completion_mode, updated_by FROM lesson_retraining_policies WHERE lesson_id = ${lessonId}`
  ).pipe(Effect.map((rows) => rows[0]))

layer(TestServerLive, { excludeTestServices: true })("PUT /v1/lessons/{id}/retraining-policy", (it) => {
  describe("field rules (400 VALIDATION_ERROR naming the field; nothing stored)", () => {
    it.effect("retrainingType required; intervalDays 1 to 3650 and required with recurring; both fields refused with none", () =>
      Effect.gen(function*() {
        const { lessonId, token } = yield* setup
        const lesson = lessonId("open20")
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{}, "retrainingType"],
          [{ retrainingType: "weekly" }, "retrainingType"],
          [{ retrainingType: "recurring" }, "intervalDays"],
          [{ retrainingType: "recurring", intervalDays: 0 }, "intervalDays"],
          [{ retrainingType: "recurring", intervalDays: 3651 }, "intervalDays"],
          [{ retrainingType: "recurring", intervalDays: 1.5 }, "intervalDays"],
          [{ retrainingType: "recurring", intervalDays: 30, completionMode: "sometimes" }, "completionMode"],
          [{ retrainingType: "none", intervalDays: 30 }, "intervalDays"],
          [{ retrainingType: "none", completionMode: "full_retake" }, "completionMode"]
        ]
        for (const [body, field] of cases) {
          const response = yield* put(lesson, token("admin"), body)
          expectError(response, 400, "VALIDATION_ERROR", JSON.stringify(body))
          expect(response.json.issues[0].path, JSON.stringify(body)).toBe(field)
        }
        expect(yield* storedPolicy(lesson)).toBeUndefined()
      }))
  })

  describe("callers", () => {
    it.effect("bad tokens 401; no scope 403; a team admin 403 (editing a lesson is for organization admins); another organization's admin 404", () =>
      Effect.gen(function*() {
        const { badTokens, lessonId, token } = yield* setup
        const lesson = lessonId("open20")
        const body = { retrainingType: "recurring", intervalDays: 90 }
        for (const [name, bad] of Object.entries(badTokens)) expectError(yield* put(lesson, bad, body), 401, "UNAUTHORIZED", name)
        for (const caller of ["viewer", "external", "unscoped", "teamAdmin", "demoted"]) {
          expectError(yield* put(lesson, token(caller), body), 403, "FORBIDDEN", caller)
        }
        expectError(yield* put(lesson, token("otto"), body), 404, "NOT_FOUND", "otto")
        expect(yield* storedPolicy(lesson)).toBeUndefined()
      }))
  })

  describe("what it does", () => {
    it.effect("recurring sets the policy and answers it; a second PUT replaces it; none turns it off", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open")
        const set = yield* put(lesson, token("owner"), { retrainingType: "recurring", intervalDays: 180, completionMode: "changed_material" })
        expect(set.status).toBe(200)
        expect(set.json).toEqual({
          lessonId: lesson,
          retrainingType: "recurring",
          intervalDays: 180,
          completionMode: "changed_material",
          updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        })
        expect(yield* storedPolicy(lesson)).toEqual({ interval_days: 180, completion_mode: "changed_material", updated_by: userId("owner") })

        const replaced = yield* put(lesson, token("billingAdmin"), { retrainingType: "recurring", intervalDays: 3650 })
        expect(replaced.json).toMatchObject({ intervalDays: 3650, completionMode: "full_retake" })

        const off = yield* put(lesson, token("admin"), { retrainingType: "none" })
        expect(off.status).toBe(200)
        expect(off.json).toEqual({ lessonId: lesson, retrainingType: "none", intervalDays: null, completionMode: null, updatedAt: null })
        expect(yield* storedPolicy(lesson)).toBeUndefined()
      }))

    it.effect("applies from the next completion: nothing is created or moved for earlier completions", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open2")
        const assigned = yield* send("POST", `/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), { audience: "users", userIds: [userId("ann"), userId("bob")] })
        expect(assigned.status).toBe(200)
        yield* execute((sql) => sql`
          UPDATE enrollments SET status = 'completed', completed_at = now(), score = 0.95 WHERE lesson_id = ${lesson} AND user_id = ${userId("bob")}`)
        const before = yield* trainingState(lesson)
        expect((yield* put(lesson, token("admin"), { retrainingType: "recurring", intervalDays: 1 })).status).toBe(200)
        // Only the act's audit row is new.
        expect(yield* trainingState(lesson)).toEqual({ ...before, audit: [...before.audit, "lesson.retraining_policy_set"].sort() })
        const retrain = yield* query((sql) => sql<{ retrain_at: Date | null }>`SELECT retrain_at FROM enrollments WHERE lesson_id = ${lesson}`)
        expect(retrain.every((row) => row.retrain_at === null)).toBe(true)
      }))

    it.effect("a lesson generated for a single person cannot have one (400); an unknown lesson is 404", () =>
      Effect.gen(function*() {
        const { lessonId, token } = yield* setup
        const body = { retrainingType: "recurring", intervalDays: 30 }
        expectError(yield* put(lessonId("personal"), token("admin"), body), 400, "LESSON_NOT_ASSIGNABLE")
        expect(yield* storedPolicy(lessonId("personal"))).toBeUndefined()
        expectError(yield* put("les_made_up", token("admin"), body), 404, "NOT_FOUND")
        // A closed lesson keeps its people's retraining.
        expect((yield* put(lessonId("closed"), token("admin"), body)).status).toBe(200)
      }))
  })
})
