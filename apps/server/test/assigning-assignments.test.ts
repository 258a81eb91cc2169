import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"

import { assignersOnce, expectRefused, execute, post, query, trainingState } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * POST /v1/lessons/{id}/assignments over the assigners
 * organization (@tks/core/testing/assigners): every field rule, every error
 * row, the caller matrix, reach (organization admins, a team admin inside
 * and outside their teams, a demoted team admin), who is reached and who is
 * quietly left out, and merging into active obligations. Every refusal is
 * shown to change nothing by reading the database after it.
 */
const setup = assignersOnce
const path = (lessonId: string) => `/v1/lessons/${lessonId}/assignments`

layer(TestServerLive, { excludeTestServices: true })("POST /v1/lessons/{id}/assignments", (it) => {
  describe("field rules (400 VALIDATION_ERROR naming the field; nothing assigned)", () => {
    it.effect("audience: required, one of everyone, teams, users, with the list it needs and only that list", () =>
      Effect.gen(function*() {
        const { lessonId, teamId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{}, "audience"],
          [{ audience: "all" }, "audience"],
          [{ audience: "teams" }, "teamIds"],
          [{ audience: "users" }, "userIds"],
          [{ audience: "everyone", teamIds: [teamId("ops")] }, "teamIds"],
          [{ audience: "everyone", userIds: [userId("ann")] }, "userIds"],
          [{ audience: "users", userIds: [userId("ann")], teamIds: [teamId("ops")] }, "teamIds"],
          [{ audience: "teams", teamIds: [teamId("ops")], userIds: [userId("ann")] }, "userIds"],
          [{ audience: "teams", teamIds: [] }, "teamIds"],
          [{ audience: "users", userIds: [] }, "userIds"],
          [{ audience: "teams", teamIds: Array.from({ length: 51 }, (_, i) => `team_${i}`) }, "teamIds"],
          [{ audience: "users", userIds: Array.from({ length: 501 }, (_, i) => `usr_${i}`) }, "userIds"],
          [{ audience: "users", userIds: "usr_1" }, "userIds"],
          [{ audience: "users", userIds: ["a\u0000b"] }, "userIds.0"]
        ]
        for (const [body, field] of cases) {
          const response = yield* expectRefused(lesson, post(path(lesson), token("admin"), body), 400, "VALIDATION_ERROR", JSON.stringify(body).slice(0, 80))
          expect(response.json.issues.map((issue: { path: string }) => issue.path), JSON.stringify(body).slice(0, 80)).toContain(field)
          expect(response.json.message).toContain(field)
        }
      }))

    it.effect("due: {type: date, date with a UTC offset} or {type: days, days 1 to 3650}", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const users = { audience: "users", userIds: [userId("ann")] }
        const dues: ReadonlyArray<unknown> = [
          { type: "days", days: 0 },
          { type: "days", days: 3651 },
          { type: "days", days: 1.5 },
          { type: "days", days: "7" },
          { type: "days" },
          { type: "date", date: "2026-12-01" },
          { type: "date", date: "2026-12-01T10:00:00" },
          { type: "date", date: "2026-02-30T10:00:00Z" },
          { type: "weeks", weeks: 2 },
          "2026-12-01T10:00:00Z"
        ]
        for (const due of dues) {
          const response = yield* expectRefused(lesson, post(path(lesson), token("admin"), { ...users, due }), 400, "VALIDATION_ERROR", JSON.stringify(due))
          expect(response.json.issues[0].path, JSON.stringify(due)).toMatch(/^due/)
        }
      }))

    it.effect("a body that is not JSON is 400 MALFORMED_JSON", () =>
      Effect.gen(function*() {
        const { lessonId, token } = yield* setup
        expectError(yield* raw("POST", path(lessonId("open20")), { token: token("admin"), body: "{\"audience\": " }), 400, "MALFORMED_JSON")
      }))
  })

  describe("callers", () => {
    it.effect("no, unknown, expired or revoked token: 401; no training:assign scope (viewer, external, an admin's unscoped token): 403", () =>
      Effect.gen(function*() {
        const { badTokens, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        const body = { audience: "users", userIds: [userId("ann")] }
        for (const [name, bad] of Object.entries(badTokens)) {
          yield* expectRefused(lesson, post(path(lesson), bad, body), 401, "UNAUTHORIZED", name)
        }
        for (const caller of ["viewer", "external", "unscoped"]) {
          const response = yield* expectRefused(lesson, post(path(lesson), token(caller), body), 403, "FORBIDDEN", caller)
          expect(response.json.message).toContain("training:assign")
        }
      }))

    it.effect("another organization's admin: this organization's lesson is 404, and its people unknown", () =>
      Effect.gen(function*() {
        const { elsewhere, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open20")
        yield* expectRefused(lesson, post(path(lesson), token("otto"), { audience: "users", userIds: [userId("ann")] }), 404, "NOT_FOUND", "our lesson")
        const theirs = elsewhere.ids.lessons.foreignLesson!
        yield* expectRefused(theirs, post(path(theirs), token("otto"), { audience: "users", userIds: [userId("ann")] }), 400, "UNKNOWN_USER", "our person")
      }))

    it.effect("each organization admin assigns anyone in the organization", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        for (const [caller, lesson, person] of [["owner", "open2", "dee"], ["admin", "open3", "cat"], ["billingAdmin", "open4", "eve"]] as const) {
          const response = yield* post(path(lessonId(lesson)), token(caller), { audience: "users", userIds: [userId(person)] })
          expect(response.status, caller).toBe(200)
          expect(response.json.assigned.map((row: { userId: string }) => row.userId), caller).toEqual([userId(person)])
        }
      }))
  })

  describe("what an assignment does", () => {
    it.effect("each newly reached person gets an enrollment, a required obligation, a quiz being prepared; the answer lists them", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const lesson = lessonId("open")
        const people = [userId("ann"), userId("bob"), userId("dee")]
        const response = yield* post(path(lesson), token("admin"), { audience: "users", userIds: people, due: { type: "days", days: 14 } })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({
          lessonId: lesson,
          title: "Open lesson 1",
          assigned: [...people].sort().map((id) => ({ userId: id, enrollmentId: expect.stringMatching(/^enr_/) }))
        })
        const state = yield* trainingState(lesson)
        expect(state.enrollments).toEqual([...people].sort().map((id) => `${id} in_progress`))
        expect(state.obligations.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([...people].sort().map((id) => `${id} active true`))
        expect(state.quizzes).toBe(3)
        expect(state.quizJobs).toBe(3)
        // Told by email, and by text when they have a phone (ann).
        expect(state.told).toEqual(
          [`${userId("ann")} email LessonAssigned`, `${userId("ann")} sms LessonAssigned`, `${userId("bob")} email LessonAssigned`, `${userId("dee")} email LessonAssigned`].sort()
        )
        const notices = yield* query((sql) => sql<{ notice: unknown }>`SELECT notice FROM notifications WHERE notice ->> 'lessonId' = ${lesson} LIMIT 1`)
        const [enrollment] = yield* query((sql) => sql<{ enrolled_at: Date }>`SELECT enrolled_at FROM enrollments WHERE lesson_id = ${lesson} LIMIT 1`)
        expect(notices[0]!.notice).toEqual({
          _tag: "LessonAssigned",
          lessonId: lesson,
          title: "Open lesson 1",
          dueDate: new Date(enrollment!.enrolled_at.getTime() + 14 * 86_400_000).toISOString()
        })
      }))

    it.effect("due in days counts from the assignment; a date with an offset is stored as that instant; no due is no deadline", () =>
      Effect.gen(function*() {
        const { lessonId, freshToken, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const days = yield* post(path(lessonId("open5")), admin, { audience: "users", userIds: [userId("ann")], due: { type: "days", days: 30 } })
        expect(days.status).toBe(200)
        const [row] = yield* dueRows(lessonId("open5"))
        expect(row!.due_date!.getTime() - row!.created_at.getTime()).toBe(30 * 86_400_000)

        const dated = yield* post(path(lessonId("open6")), admin, {
          audience: "users",
          userIds: [userId("ann")],
          due: { type: "date", date: "2030-06-01T17:00:00+02:00" }
        })
        expect(dated.status).toBe(200)
        expect((yield* dueRows(lessonId("open6")))[0]!.due_date!.toISOString()).toBe("2030-06-01T15:00:00.000Z")

        yield* post(path(lessonId("open7")), admin, { audience: "users", userIds: [userId("ann")] })
        expect((yield* dueRows(lessonId("open7")))[0]!.due_date).toBeNull()
      }))

    it.effect("people who already have the lesson are left as they were and not listed; an empty list is a success", () =>
      Effect.gen(function*() {
        const { lessonId, freshToken, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const lesson = lessonId("open8")
        const first = yield* post(path(lesson), admin, { audience: "users", userIds: [userId("ann")] })
        expect(first.json.assigned).toHaveLength(1)
        // Bob completed it long ago (no obligation): he is left as he was, with no new obligation.
        yield* execute((sql) => sql`
          INSERT INTO enrollments (org_id, id, user_id, lesson_id, status, completed_at, score)
          SELECT org_id, 'enr_bob_done', id, ${lesson}, 'completed', now() - interval '30 days', 0.9 FROM users WHERE id = ${userId("bob")}`)
        const before = yield* trainingState(lesson)
        const again = yield* post(path(lesson), admin, { audience: "users", userIds: [userId("ann"), userId("bob")] })
        expect(again.status).toBe(200)
        expect(again.json.assigned).toEqual([])
        // Only the act's audit row is new.
        expect(yield* trainingState(lesson)).toEqual({ ...before, audit: [...before.audit, "lesson.assigned"].sort() })
      }))

    it.effect("someone with the lesson in progress but no active obligation (it was waived) gets a new one, without a new enrollment", () =>
      Effect.gen(function*() {
        const { lessonId, freshToken, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const lesson = lessonId("open9")
        yield* post(path(lesson), admin, { audience: "users", userIds: [userId("ann")] })
        yield* execute((sql) => sql`UPDATE obligations SET status = 'waived' WHERE item_id = ${lesson}`)
        const again = yield* post(path(lesson), admin, { audience: "users", userIds: [userId("ann")] })
        expect(again.json.assigned).toEqual([])
        const state = yield* trainingState(lesson)
        expect(state.enrollments).toEqual([`${userId("ann")} in_progress`])
        expect(state.obligations.map((line) => line.split(" ").slice(0, 2).join(" ")).sort()).toEqual(
          [`${userId("ann")} active`, `${userId("ann")} waived`].sort()
        )
      }))

    it.effect("assigning again merges into the active obligation: the earlier due date wins, no deadline never removes one", () =>
      Effect.gen(function*() {
        const { lessonId, freshToken, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const lesson = lessonId("open10")
        const users = { audience: "users", userIds: [userId("ann")] }
        yield* post(path(lesson), admin, { ...users, due: { type: "date", date: "2031-01-01T00:00:00Z" } })
        yield* post(path(lesson), admin, { ...users, due: { type: "date", date: "2032-01-01T00:00:00Z" } })
        yield* post(path(lesson), admin, users)
        expect((yield* dueRows(lesson)).map((row) => row.due_date?.toISOString())).toEqual(["2031-01-01T00:00:00.000Z"])
        yield* post(path(lesson), admin, { ...users, due: { type: "date", date: "2030-01-01T00:00:00Z" } })
        expect((yield* dueRows(lesson)).map((row) => row.due_date?.toISOString())).toEqual(["2030-01-01T00:00:00.000Z"])
      }))

    it.effect("a merge makes an optional obligation required, and never moves a date set by hand", () =>
      Effect.gen(function*() {
        const { lessonId, freshToken, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const lesson = lessonId("open11")
        const users = { audience: "users", userIds: [userId("ann")] }
        yield* post(path(lesson), admin, { ...users, due: { type: "date", date: "2031-01-01T00:00:00Z" } })
        yield* execute((sql) => sql`
          UPDATE obligations SET required = false, due_date = '2035-01-01T00:00:00Z', due_date_overridden = true,
            computed_due_date = '2031-01-01T00:00:00Z' WHERE item_id = ${lesson}`)
        yield* post(path(lesson), admin, { ...users, due: { type: "date", date: "2030-01-01T00:00:00Z" } })
        const [row] = yield* dueRows(lesson)
        expect(row).toMatchObject({ required: true, due_date_overridden: true })
        expect(row!.due_date!.toISOString()).toBe("2035-01-01T00:00:00.000Z")
        expect(row!.computed_due_date!.toISOString()).toBe("2030-01-01T00:00:00.000Z")
      }))
  })

  describe("audiences", () => {
    it.effect("everyone: every active person who can read the lesson; those who left and external accounts are quietly left out", () =>
      Effect.gen(function*() {
        const { lessonId, result, token, userId } = yield* setup
        const lesson = lessonId("open12")
        const response = yield* post(path(lesson), token("owner"), { audience: "everyone" })
        expect(response.status).toBe(200)
        const assigned = new Set(response.json.assigned.map((row: { userId: string }) => row.userId))
        const active = Object.entries(result.ids.people).filter(([key]) => !["gone", "external"].includes(key))
        expect(assigned.size).toBe(active.length)
        for (const [key, id] of active) expect(assigned.has(id), key).toBe(true)
        expect(assigned.has(userId("gone"))).toBe(false)
        expect(assigned.has(userId("external"))).toBe(false)
      }))

    it.effect("a lesson for a team: everyone is its readers only", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        const response = yield* post(path(lessonId("opsOnly")), token("admin"), { audience: "everyone" })
        const assigned = response.json.assigned.map((row: { userId: string }) => row.userId).sort()
        // Ops: the team admin, viewer, external (teams lessons include external members), ann, bob; gone has left. Admins read everything.
        const expected = ["teamAdmin", "viewer", "external", "ann", "bob", "owner", "admin", "billingAdmin", "unscoped", "expired", "revoked"]
        expect(assigned).toEqual(expected.map(userId).sort())
      }))

    it.effect("teams: the members of the teams who can take the lesson, once each", () =>
      Effect.gen(function*() {
        const { lessonId, teamId, token, userId } = yield* setup
        const response = yield* post(path(lessonId("open13")), token("admin"), { audience: "teams", teamIds: [teamId("ops"), teamId("night"), teamId("ops")] })
        expect(response.status).toBe(200)
        expect(response.json.assigned.map((row: { userId: string }) => row.userId).sort()).toEqual(
          ["teamAdmin", "viewer", "ann", "bob", "cat"].map(userId).sort()
        )
      }))

    it.effect("nobody in the audience can take the lesson: 400, nothing assigned", () =>
      Effect.gen(function*() {
        const { lessonId, teamId, token } = yield* setup
        const lesson = lessonId("open14")
        yield* expectRefused(lesson, post(path(lesson), token("admin"), { audience: "teams", teamIds: [teamId("empty")] }), 400, "NOBODY_REACHED", "empty team")
      }))

    it.effect("naming someone who cannot take the lesson is 400 (left the organization, cannot read it), and nothing is assigned to anyone", () =>
      Effect.gen(function*() {
        const { lessonId, token, userId } = yield* setup
        // Each with a companion who could take it: nothing is assigned to them either.
        const cases = [["open14", "gone", "cat"], ["open14", "external", "cat"], ["opsOnly", "dee", "ann"], ["adminsOnly", "ann", "admin"]] as const
        for (const [lesson, person, companion] of cases) {
          const response = yield* expectRefused(
            lessonId(lesson),
            post(path(lessonId(lesson)), token("owner"), { audience: "users", userIds: [userId(companion), userId(person)] }),
            400,
            "CANNOT_TAKE_LESSON",
            `${lesson} ${person}`
          )
          expect(response.json.message).toContain(userId(person))
          expect(response.json.message).not.toContain(userId(companion))
        }
      }))

    it.effect("an unknown team or another organization's team: 400 Unknown teamId; unknown or other-organization people: 400", () =>
      Effect.gen(function*() {
        const { elsewhere, freshToken, lessonId, teamId, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const lesson = lessonId("open14")
        for (const teamIds of [[teamId("ops"), "team_made_up"], [elsewhere.ids.teams.foreign!]]) {
          const response = yield* expectRefused(lesson, post(path(lesson), admin, { audience: "teams", teamIds }), 400, "UNKNOWN_TEAM", teamIds.join())
          expect(response.json.message).toBe("Unknown teamId")
        }
        for (const userIds of [[userId("ann"), "usr_made_up"], [elsewhere.ids.people.pia!]]) {
          const response = yield* expectRefused(lesson, post(path(lesson), admin, { audience: "users", userIds }), 400, "UNKNOWN_USER", userIds.join())
          expect(response.json.message).toContain(userIds.at(-1))
        }
      }))
  })

  describe("the lesson", () => {
    it.effect("closed, or generated for a single person: 400; unknown, another organization's, or unreadable by the caller: 404", () =>
      Effect.gen(function*() {
        const { elsewhere, freshToken, lessonId, token, userId } = yield* setup
        const admin = yield* freshToken("admin")
        const body = { audience: "users", userIds: [userId("ann")] }
        yield* expectRefused(lessonId("closed"), post(path(lessonId("closed")), admin, body), 400, "LESSON_NOT_ASSIGNABLE", "closed")
        yield* expectRefused(lessonId("personal"), post(path(lessonId("personal")), admin, body), 400, "LESSON_NOT_ASSIGNABLE", "personal")
        expectError(yield* post(path("les_made_up"), admin, body), 404, "NOT_FOUND", "unknown")
        const theirs = elsewhere.ids.lessons.foreignLesson!
        yield* expectRefused(theirs, post(path(theirs), admin, body), 404, "NOT_FOUND", "another organization's")
        // Board secrets is for admins only: a team admin cannot read it.
        const secrets = lessonId("adminsOnly")
        yield* expectRefused(secrets, post(path(secrets), token("teamAdmin"), { audience: "users", userIds: [userId("ann")] }), 404, "NOT_FOUND", "unreadable")
      }))
  })

  describe("reach", () => {
    it.effect("a team admin assigns people on the teams they administer, and themself", () =>
      Effect.gen(function*() {
        const { lessonId, teamId, token, userId } = yield* setup
        const named = yield* post(path(lessonId("open15")), token("teamAdmin"), { audience: "users", userIds: [userId("ann"), userId("cat"), userId("teamAdmin")] })
        expect(named.status).toBe(200)
        expect(named.json.assigned).toHaveLength(3)
        const teams = yield* post(path(lessonId("open16")), token("teamAdmin"), { audience: "teams", teamIds: [teamId("ops")] })
        expect(teams.status).toBe(200)
        expect(teams.json.assigned.map((row: { userId: string }) => row.userId).sort()).toEqual(["teamAdmin", "viewer", "ann", "bob"].map(userId).sort())
      }))

    it.effect("a team admin naming anyone outside their teams, a team they do not administer, or everyone: 403 and nothing changes for anyone", () =>
      Effect.gen(function*() {
        const { lessonId, teamId, token, userId } = yield* setup
        const lesson = lessonId("open17")
        const outside = yield* expectRefused(
          lesson,
          post(path(lesson), token("teamAdmin"), { audience: "users", userIds: [userId("ann"), userId("dee")] }),
          403,
          "FORBIDDEN",
          "dee is on alpha only"
        )
        expect(outside.json.message).toContain(userId("dee"))
        expect(outside.json.message).not.toContain(userId("ann"))
        // Alpha: the team admin is on it, but as a team-viewer.
        yield* expectRefused(lesson, post(path(lesson), token("teamAdmin"), { audience: "teams", teamIds: [teamId("ops"), teamId("alpha")] }), 403, "FORBIDDEN", "alpha")
        yield* expectRefused(lesson, post(path(lesson), token("teamAdmin"), { audience: "everyone" }), 403, "FORBIDDEN", "everyone")
      }))

    it.effect("a demoted team admin keeps the token's scope but is held to their current reach: only themself", () =>
      Effect.gen(function*() {
        const { lessonId, teamId, token, userId } = yield* setup
        const before = yield* post(path(lessonId("open18")), token("demoted"), { audience: "users", userIds: [userId("eve")] })
        expect(before.status).toBe(200)
        yield* execute((sql) => sql`UPDATE team_members SET role = 'team-viewer' WHERE user_id = ${userId("demoted")}`)
        const lesson = lessonId("open19")
        const refused = yield* expectRefused(lesson, post(path(lesson), token("demoted"), { audience: "users", userIds: [userId("eve")] }), 403, "FORBIDDEN", "eve")
        expect(refused.json.message).toContain("only to yourself")
        yield* expectRefused(lesson, post(path(lesson), token("demoted"), { audience: "teams", teamIds: [teamId("dock")] }), 403, "FORBIDDEN", "dock")
        yield* expectRefused(lesson, post(path(lesson), token("demoted"), { audience: "users", userIds: [userId("demoted"), userId("eve")] }), 403, "FORBIDDEN", "self and eve")
        const self = yield* post(path(lesson), token("demoted"), { audience: "users", userIds: [userId("demoted")] })
        expect(self.status).toBe(200)
        expect(self.json.assigned.map((row: { userId: string }) => row.userId)).toEqual([userId("demoted")])
      }))
  })
})

/** The lesson's active obligations with their due-date columns. */
const dueRows = (lessonId: string) =>
  query((sql) =>
    sql<{ required: boolean; due_date: Date | null; due_date_overridden: boolean; computed_due_date: Date | null; created_at: Date }>`
      SELECT required, due_date, due_date_overridden, computed_due_date, created_at FROM obligations
      WHERE item_id = ${lessonId} AND status = 'active' ORDER BY user_id`
  )
