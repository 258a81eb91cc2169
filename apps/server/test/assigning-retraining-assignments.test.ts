import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, expectRefused, execute, post, storedObligation, trainingState } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * POST /v1/retraining-assignments: a new enrollment unless one
 * is in progress, the obligation with its due date in days, the reason and
 * retrainingResetsClock kept, merging into an active obligation; reach;
 * single-person lessons refused.
 */
const setup = assignersOnce
const PATH = "/v1/retraining-assignments"

/** `userKey` completed the lesson a month ago. */
const completedBefore = (lessonId: string, userKey: string) =>
  Effect.gen(function*() {
    const { userId } = yield* setup
    yield* execute((sql) => sql`
      INSERT INTO enrollments (org_id, id, user_id, lesson_id, status, enrolled_at, completed_at, score)
      SELECT org_id, ${`enr_done_${userKey}_${lessonId}`}, id, ${lessonId}, 'completed', now() - interval '40 days', now() - interval '30 days', 0.9
      FROM users WHERE id = ${userId(userKey)}`)
  })

layer(TestServerLive, { excludeTestServices: true })("POST /v1/retraining-assignments", (it) => {
  describe("field rules and callers", () => {
    it.effect("userId, lessonId, dueDays (1 to 3650) and retrainingResetsClock required; reason up to 2000 characters", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const valid = { userId: userId("ann"), lessonId: lessonId("open20"), dueDays: 30, retrainingResetsClock: true }
        const { dueDays: _, ...noDays } = valid
        const { retrainingResetsClock: __, ...noClock } = valid
        const { userId: ___, ...noUser } = valid
        const { lessonId: ____, ...noLesson } = valid
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [noDays, "dueDays"],
          [{ ...valid, dueDays: 0 }, "dueDays"],
          [{ ...valid, dueDays: 3651 }, "dueDays"],
          [noClock, "retrainingResetsClock"],
          [{ ...valid, retrainingResetsClock: "yes" }, "retrainingResetsClock"],
          [noUser, "userId"],
          [noLesson, "lessonId"],
          [{ ...valid, reason: "x".repeat(2001) }, "reason"]
        ]
        for (const [body, field] of cases) {
          const response = yield* expectRefused(lessonId("open20"), post(PATH, token("admin"), body), 400, "VALIDATION_ERROR", field)
          expect(response.json.issues[0].path).toBe(field)
        }
      }))

    it.effect("bad tokens 401; no scope 403; another organization's admin: 404 for this organization's lesson", () =>
      Effect.gen(function*() {
        const { badTokens, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const body = { userId: userId("ann"), lessonId: lesson, dueDays: 30, retrainingResetsClock: true }
        for (const [name, bad] of Object.entries(badTokens)) yield* expectRefused(lesson, post(PATH, bad, body), 401, "UNAUTHORIZED", name)
        for (const caller of ["viewer", "external", "unscoped"]) yield* expectRefused(lesson, post(PATH, token(caller), body), 403, "FORBIDDEN", caller)
        yield* expectRefused(lesson, post(PATH, token("otto"), body), 404, "NOT_FOUND", "otto")
      }))
  })

  describe("what it does", () => {
    it.effect("someone who completed the lesson is enrolled again and owes it by dueDays from now; reason and retrainingResetsClock are kept", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open")
        yield* completedBefore(lesson, "ann")
        const started = Date.now()
        const response = yield* post(PATH, token("admin"), {
          userId: userId("ann"),
          lessonId: lesson,
          dueDays: 60,
          retrainingResetsClock: false,
          reason: "Audit finding"
        })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({
          id: expect.stringMatching(/^obl_/),
          userId: userId("ann"),
          itemType: "lesson",
          itemId: lesson,
          status: "active",
          required: true,
          dueDate: expect.any(String),
          dueDateOverridden: false,
          needsReview: false
        })
        const due = Date.parse(response.json.dueDate)
        expect(due).toBeGreaterThanOrEqual(started + 60 * 86_400_000 - 5_000)
        expect(due).toBeLessThanOrEqual(Date.now() + 60 * 86_400_000 + 5_000)
        expect(yield* storedObligation(response.json.id)).toMatchObject({ kind: "retraining", reason: "Audit finding", retraining_resets_clock: false })
        const state = yield* trainingState(lesson)
        expect(state.enrollments).toEqual([`${userId("ann")} completed`, `${userId("ann")} in_progress`])
        expect(state.quizzes).toBe(1)
        expect(state.quizJobs).toBe(1)
        expect(state.told).toEqual([`${userId("ann")} email RetrainingAssigned`, `${userId("ann")} sms RetrainingAssigned`])
      }))

    it.effect("with the lesson in progress: no second enrollment; merges into the active obligation (the earlier date wins)", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open2")
        const assigned = yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), {
          audience: "users",
          userIds: [userId("bob")],
          due: { type: "days", days: 90 }
        })
        expect(assigned.status).toBe(200)
        const retrained = yield* post(PATH, token("admin"), { userId: userId("bob"), lessonId: lesson, dueDays: 10, retrainingResetsClock: true })
        expect(retrained.status).toBe(200)
        const state = yield* trainingState(lesson)
        expect(state.enrollments).toEqual([`${userId("bob")} in_progress`])
        expect(state.obligations).toHaveLength(1)
        // Told of the assignment, then of the retraining.
        expect(state.told).toEqual([`${userId("bob")} email LessonAssigned`, `${userId("bob")} email RetrainingAssigned`])
        expect(Date.parse(retrained.json.dueDate)).toBeLessThan(Date.now() + 11 * 86_400_000)
        expect(yield* storedObligation(retrained.json.id)).toMatchObject({ kind: "assignment", retraining_resets_clock: true })
        // A later date does not move it.
        const later = yield* post(PATH, token("admin"), { userId: userId("bob"), lessonId: lesson, dueDays: 300, retrainingResetsClock: true })
        expect(later.json.dueDate).toBe(retrained.json.dueDate)
      }))
  })

  describe("refusals (nothing changes)", () => {
    it.effect("a single-person lesson 400; unknown or unreadable lesson 404; unknown person 400; a person who cannot take it 400", () =>
      Effect.gen(function*() {
        const { elsewhere, freshToken, lessonId, token, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const body = (lesson: string, person: string) => ({ userId: person, lessonId: lesson, dueDays: 30, retrainingResetsClock: true })
        yield* expectRefused(lessonId("personal"), post(PATH, admin, body(lessonId("personal"), userId("ann"))), 400, "LESSON_NOT_ASSIGNABLE", "personal")
        expectError(yield* post(PATH, admin, body("les_made_up", userId("ann"))), 404, "NOT_FOUND", "unknown lesson")
        const theirs = elsewhere.ids.lessons.foreignLesson!
        yield* expectRefused(theirs, post(PATH, admin, body(theirs, userId("ann"))), 404, "NOT_FOUND", "other organization's lesson")
        yield* expectRefused(lessonId("adminsOnly"), post(PATH, token("teamAdmin"), body(lessonId("adminsOnly"), userId("ann"))), 404, "NOT_FOUND", "unreadable")
        const lesson = lessonId("open3")
        yield* expectRefused(lesson, post(PATH, admin, body(lesson, "usr_made_up")), 400, "UNKNOWN_USER", "unknown person")
        yield* expectRefused(lesson, post(PATH, admin, body(lesson, elsewhere.ids.people.pia!)), 400, "UNKNOWN_USER", "pia")
        yield* expectRefused(lesson, post(PATH, admin, body(lesson, userId("gone"))), 400, "CANNOT_TAKE_LESSON", "gone")
        yield* expectRefused(lessonId("opsOnly"), post(PATH, admin, body(lessonId("opsOnly"), userId("dee"))), 400, "CANNOT_TAKE_LESSON", "dee")
      }))

    it.effect("a closed lesson cannot be retrained: 400 LESSON_NOT_ASSIGNABLE and nothing is created (no enrollment, obligation, quiz job or notification)", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const lesson = lessonId("closed")
        yield* completedBefore(lesson, "cat")
        const body = { userId: userId("cat"), lessonId: lesson, dueDays: 30, retrainingResetsClock: true }
        const response = yield* expectRefused(lesson, post(PATH, admin, body), 400, "LESSON_NOT_ASSIGNABLE", "closed")
        expect(response.json.message).toMatch(/closed/)
      }))

    it.effect("reach: a team admin retrains people on their teams, not others (403); a demoted one only themself", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open4")
        const body = (person: string) => ({ userId: userId(person), lessonId: lesson, dueDays: 30, retrainingResetsClock: true })
        expect((yield* post(PATH, token("teamAdmin"), body("cat"))).status).toBe(200)
        yield* expectRefused(lesson, post(PATH, token("teamAdmin"), body("dee")), 403, "FORBIDDEN", "dee")
        yield* execute((sql) => sql`UPDATE team_members SET role = 'team-viewer' WHERE user_id = ${userId("demoted")}`)
        yield* expectRefused(lesson, post(PATH, token("demoted"), body("eve")), 403, "FORBIDDEN", "eve")
        expect((yield* post(PATH, token("demoted"), body("demoted"))).status).toBe(200)
      }))
  })
})
