import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, expectRefused, execute, post, query, trainingState } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * POST /v1/lessons/{id}/unassign: in-progress
 * enrollments removed with their progress, the requirement cancelled,
 * completed enrollments kept; 400 when nobody named has it in progress;
 * only an organization admin takes back a lesson required of someone; reach.
 */
const setup = assignersOnce
const unassign = (lessonId: string) => `/v1/lessons/${lessonId}/unassign`
const assign = (lessonId: string) => `/v1/lessons/${lessonId}/assignments`

/** Assigns the lesson to the people as an organization admin. */
const assigned = (lessonId: string, people: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { freshToken } = yield* setup
    const response = yield* post(assign(lessonId), yield* freshToken("owner"), { audience: "users", userIds: people })
    expect(response.status).toBe(200)
  })

layer(TestServerLive, { excludeTestServices: true })("POST /v1/lessons/{id}/unassign", (it) => {
  describe("field rules and callers", () => {
    it.effect("userIds: required, 1 to 500 ids (400 VALIDATION_ERROR naming it)", () =>
      Effect.gen(function*() {
        const { lessonId, token } = yield* setup
        const lesson = lessonId("open20")
        for (const body of [{}, { userIds: [] }, { userIds: "usr_1" }, { userIds: Array.from({ length: 501 }, (_, i) => `usr_${i}`) }]) {
          const response = yield* expectRefused(lesson, post(unassign(lesson), token("admin"), body), 400, "VALIDATION_ERROR", JSON.stringify(body).slice(0, 40))
          expect(response.json.issues[0].path).toBe("userIds")
        }
      }))

    it.effect("bad tokens 401; no training:assign 403; another organization's admin 404", () =>
      Effect.gen(function*() {
        const { badTokens, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const body = { userIds: [userId("ann")] }
        for (const [name, bad] of Object.entries(badTokens)) yield* expectRefused(lesson, post(unassign(lesson), bad, body), 401, "UNAUTHORIZED", name)
        for (const caller of ["viewer", "external", "unscoped"]) yield* expectRefused(lesson, post(unassign(lesson), token(caller), body), 403, "FORBIDDEN", caller)
        yield* expectRefused(lesson, post(unassign(lesson), token("otto"), body), 404, "NOT_FOUND", "otto")
      }))
  })

  describe("what it does", () => {
    it.effect("removes in-progress enrollments with their quiz, cancels the obligation with a reason, keeps completed enrollments", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open")
        yield* assigned(lesson, [userId("ann"), userId("bob"), userId("cat")])
        // Bob finished it: his enrollment and obligation are completed.
        yield* execute((sql) => sql`
          UPDATE enrollments SET status = 'completed', completed_at = now(), score = 0.9 WHERE lesson_id = ${lesson} AND user_id = ${userId("bob")}`)
        yield* execute((sql) => sql`
          UPDATE obligations SET status = 'completed', completed_at = now() WHERE item_id = ${lesson} AND user_id = ${userId("bob")}`)
        const response = yield* post(unassign(lesson), token("admin"), { userIds: [userId("ann"), userId("bob")] })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({ lessonId: lesson, title: "Open lesson 1", removedCount: 1 })
        const state = yield* trainingState(lesson)
        expect(state.enrollments).toEqual([`${userId("bob")} completed`, `${userId("cat")} in_progress`].sort())
        expect(state.quizzes).toBe(2)
        const obligations = yield* query((sql) =>
          sql<{ user_id: string; status: string; end_reason: string | null; ended_by: string | null }>`
            SELECT user_id, status, end_reason, ended_by FROM obligations WHERE item_id = ${lesson} ORDER BY user_id`
        )
        const of = (key: string) => obligations.find((row) => row.user_id === userId(key))
        expect(of("ann")).toMatchObject({ status: "cancelled", end_reason: expect.stringContaining("Unassigned"), ended_by: userId("admin") })
        expect(of("bob")?.status).toBe("completed")
        expect(of("cat")?.status).toBe("active")
      }))

    it.effect("assigning again after an unassignment makes a new enrollment and a new obligation", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open2")
        yield* assigned(lesson, [userId("ann")])
        expect((yield* post(unassign(lesson), token("admin"), { userIds: [userId("ann")] })).status).toBe(200)
        yield* assigned(lesson, [userId("ann")])
        const state = yield* trainingState(lesson)
        expect(state.enrollments).toEqual([`${userId("ann")} in_progress`])
        expect(state.obligations.map((line) => line.split(" ")[1]).sort()).toEqual(["active", "cancelled"])
      }))

    it.effect("none of the named people has the lesson in progress: 400, nothing changes", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open3")
        yield* assigned(lesson, [userId("cat")])
        yield* expectRefused(lesson, post(unassign(lesson), token("admin"), { userIds: [userId("ann"), userId("bob")] }), 400, "LESSON_NOT_IN_PROGRESS", "not enrolled")
      }))

    it.effect("unknown or other-organization people: 400; an unknown lesson: 404", () =>
      Effect.gen(function*() {
        const { elsewhere, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open3")
        yield* expectRefused(lesson, post(unassign(lesson), token("admin"), { userIds: [userId("cat"), "usr_made_up"] }), 400, "UNKNOWN_USER", "made up")
        yield* expectRefused(lesson, post(unassign(lesson), token("admin"), { userIds: [elsewhere.ids.people.pia!] }), 400, "UNKNOWN_USER", "pia")
        expectError(yield* post(unassign("les_made_up"), token("admin"), { userIds: [userId("cat")] }), 404, "NOT_FOUND")
      }))
  })

  describe("who may take a lesson back", () => {
    it.effect("a team admin may not take back a lesson required of someone (403, nothing changes), but may when it is optional", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open4")
        yield* assigned(lesson, [userId("ann"), userId("bob")])
        const refused = yield* expectRefused(lesson, post(unassign(lesson), token("teamAdmin"), { userIds: [userId("ann"), userId("bob")] }), 403, "FORBIDDEN", "required")
        expect(refused.json.message).toContain("organization admin")
        yield* execute((sql) => sql`UPDATE obligations SET required = false WHERE item_id = ${lesson}`)
        const optional = yield* post(unassign(lesson), token("teamAdmin"), { userIds: [userId("ann"), userId("bob")] })
        expect(optional.status).toBe(200)
        expect(optional.json.removedCount).toBe(2)
      }))

    it.effect("a team admin naming someone outside their teams: 403, nothing changes for anyone", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open5")
        yield* assigned(lesson, [userId("ann"), userId("dee")])
        yield* execute((sql) => sql`UPDATE obligations SET required = false WHERE item_id = ${lesson}`)
        yield* expectRefused(lesson, post(unassign(lesson), token("teamAdmin"), { userIds: [userId("ann"), userId("dee")] }), 403, "FORBIDDEN", "dee")
      }))

    it.effect("a demoted team admin may take back only their own lesson, and only when it is not required of them", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open6")
        yield* assigned(lesson, [userId("demoted"), userId("eve")])
        yield* execute((sql) => sql`UPDATE team_members SET role = 'team-viewer' WHERE user_id = ${userId("demoted")}`)
        yield* execute((sql) => sql`UPDATE obligations SET required = false WHERE item_id = ${lesson}`)
        yield* expectRefused(lesson, post(unassign(lesson), token("demoted"), { userIds: [userId("eve")] }), 403, "FORBIDDEN", "eve")
        const own = yield* post(unassign(lesson), token("demoted"), { userIds: [userId("demoted")] })
        expect(own.json).toMatchObject({ removedCount: 1 })
      }))
  })
})
