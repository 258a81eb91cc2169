import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, execute, expectRefused, post, query, send } from "./support/assigners.js"
import { auditRows, shownEvents, storedEventsNaming } from "./support/journal.js"
import { TestServerLive } from "./support/server.js"

/**
 * The assigning acts' trace (docs/domain.md, Events and the audit log): one
 * audit row per act, named by its first event or by the act when it emits
 * none, and the events of what it created or ended; read back through
 * GET /v1/events and GET /v1/audit-events as an organization admin.
 */
const setup = assignersOnce

const person = (userId: string) => ({ id: userId, name: expect.any(String), email: expect.any(String) })

const activeObligation = (lessonId: string, userId: string) =>
  query((sql) =>
    sql<{ id: string }>`SELECT id FROM obligations WHERE item_id = ${lessonId} AND user_id = ${userId} AND status = 'active'`
  ).pipe(Effect.map((rows) => rows[0]?.id))

layer(TestServerLive, { excludeTestServices: true })("the assigning acts' events and audit rows", (it) => {
  describe("assigning a lesson", () => {
    it.effect("emits one enrollment.created per new enrollee and one obligation.created per new obligation, under one audit row naming the lesson", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open")
        const people = ["ann", "bob", "cat"].map(userId)
        const response = yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), {
          audience: "users",
          userIds: people,
          due: { type: "date", date: "2031-03-01T00:00:00.000Z" }
        })
        expect(response.status, response.text).toBe(200)
        const assigned = response.json.assigned as Array<{ userId: string; enrollmentId: string }>

        const onLesson = (event: any) => event.data.lesson?.id === lesson || event.data.obligation?.itemId === lesson
        const enrollments = yield* shownEvents(token("owner"), "enrollment.created", onLesson, 3)
        expect(enrollments).toHaveLength(3)
        expect(enrollments.map((event) => event.data).sort((a, b) => (a.person.id < b.person.id ? -1 : 1))).toEqual(
          [...assigned].sort((a, b) => (a.userId < b.userId ? -1 : 1)).map((row) => ({
            enrollment: { id: row.enrollmentId },
            lesson: { id: lesson, title: "Open lesson 1" },
            person: person(row.userId)
          }))
        )
        expect(enrollments.every((event) => event.actor.type === "person" && event.actor.personId === userId("admin"))).toBe(true)

        const obligations = yield* shownEvents(token("owner"), "obligation.created", onLesson, 3)
        expect(obligations.map((event) => event.data.person.id).sort()).toEqual([...people].sort())
        for (const event of obligations) {
          expect(event.data.obligation).toEqual({
            id: yield* activeObligation(lesson, event.data.person.id),
            itemType: "lesson",
            itemId: lesson,
            required: true,
            dueDate: "2031-03-01T00:00:00.000Z"
          })
        }

        const rows = yield* auditRows(token("owner"), lesson)
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          action: "enrollment.created",
          actor: { type: "person", personId: userId("admin") },
          targets: [{ type: "lesson", id: lesson }],
          changes: null
        })
      }))

    it.effect("again, only the people new to it have events; naming only people who have it is lesson.assigned, with none", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open")
        const before = yield* storedEventsNaming(lesson)
        const again = yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), { audience: "users", userIds: [userId("ann"), userId("dee")] })
        expect(again.status, again.text).toBe(200)
        const dee = (event: any) => event.data.person.id === userId("dee")
        expect(yield* shownEvents(token("owner"), "enrollment.created", dee, 1)).toHaveLength(1)
        expect(yield* shownEvents(token("owner"), "obligation.created", dee, 1)).toHaveLength(1)
        expect(yield* storedEventsNaming(lesson)).toHaveLength(before.length + 2)

        const merged = yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), { audience: "users", userIds: [userId("ann")] })
        expect(merged.status, merged.text).toBe(200)
        expect(yield* storedEventsNaming(lesson)).toHaveLength(before.length + 2)
        const rows = yield* auditRows(token("owner"), lesson)
        expect(rows.map((row) => row.action)).toEqual(["lesson.assigned", "enrollment.created", "enrollment.created"])
      }))

    it.effect("a refused act (a closed lesson; someone outside the team admin's reach) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const closed = lessonId("closed")
        yield* expectRefused(closed, post(`/v1/lessons/${closed}/assignments`, yield* freshToken("admin"), { audience: "users", userIds: [userId("ann")] }), 400, "LESSON_NOT_ASSIGNABLE", "closed")
        const open = lessonId("open2")
        yield* expectRefused(open, post(`/v1/lessons/${open}/assignments`, yield* freshToken("teamAdmin"), { audience: "users", userIds: [userId("dee")] }), 403, "FORBIDDEN", "out of reach")
        expect(yield* auditRows(token("owner"), closed)).toEqual([])
        expect(yield* auditRows(token("owner"), open)).toEqual([])
      }))
  })

  describe("unassigning", () => {
    it.effect("cancels with one obligation.cancelled per obligation, under one audit row naming the lesson and the people", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open3")
        const admin = yield* freshToken("admin")
        expect((yield* post(`/v1/lessons/${lesson}/assignments`, admin, { audience: "users", userIds: [userId("ann"), userId("bob")] })).status).toBe(200)
        const obligations = [yield* activeObligation(lesson, userId("ann")), yield* activeObligation(lesson, userId("bob"))]
        const response = yield* post(`/v1/lessons/${lesson}/unassign`, admin, { userIds: [userId("ann"), userId("bob")] })
        expect(response.status, response.text).toBe(200)

        const cancelled = yield* shownEvents(token("owner"), "obligation.cancelled", (event) => event.data.obligation.itemId === lesson, 2)
        expect(cancelled.map((event) => event.data.obligation.id).sort()).toEqual([...obligations].sort())
        for (const event of cancelled) {
          expect(event.data).toMatchObject({ reason: "Unassigned: the lesson was taken back", person: person(event.data.person.id) })
        }
        const [row] = yield* auditRows(token("owner"), lesson, "obligation.cancelled")
        expect(row.targets).toEqual([
          { type: "lesson", id: lesson },
          ...[userId("ann"), userId("bob")].sort().map((id) => ({ type: "person", id }))
        ])
        expect((yield* auditRows(token("owner"), userId("bob"), "obligation.cancelled")).map((found) => found.id)).toEqual([row.id])
      }))

    it.effect("taking back a lesson nobody owes any more (the obligation waived) is lesson.unassigned, with no event", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open4")
        const admin = yield* freshToken("admin")
        expect((yield* post(`/v1/lessons/${lesson}/assignments`, admin, { audience: "users", userIds: [userId("cat")] })).status).toBe(200)
        const obligation = (yield* activeObligation(lesson, userId("cat")))!
        expect((yield* post(`/v1/obligations/${obligation}/waive`, admin, { reason: "covered elsewhere" })).status).toBe(200)
        const before = yield* storedEventsNaming(lesson)
        expect((yield* post(`/v1/lessons/${lesson}/unassign`, admin, { userIds: [userId("cat")] })).status).toBe(200)
        const rows = yield* auditRows(token("owner"), lesson)
        expect(rows[0]).toMatchObject({ action: "lesson.unassigned", targets: [{ type: "lesson", id: lesson }, { type: "person", id: userId("cat") }] })
        expect(yield* storedEventsNaming(lesson)).toEqual(before)
      }))

    it.effect("refused (a team admin taking back a required lesson) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, userId } = yield* setup
        const lesson = lessonId("open5")
        expect((yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), { audience: "users", userIds: [userId("ann")] })).status).toBe(200)
        yield* expectRefused(lesson, post(`/v1/lessons/${lesson}/unassign`, yield* freshToken("teamAdmin"), { userIds: [userId("ann")] }), 403, "FORBIDDEN", "required")
      }))
  })

  describe("the retraining policy", () => {
    it.effect("is recorded as lesson.retraining_policy_set with the fields it changed, old and new; setting it unchanged records no changes", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token } = yield* setup
        const lesson = lessonId("open6")
        const admin = yield* freshToken("admin")
        const put = (body: unknown) => send("PUT", `/v1/lessons/${lesson}/retraining-policy`, admin, body)
        expect((yield* put({ retrainingType: "recurring", intervalDays: 90 })).status).toBe(200)
        expect((yield* put({ retrainingType: "recurring", intervalDays: 90, completionMode: "changed_material" })).status).toBe(200)
        expect((yield* put({ retrainingType: "recurring", intervalDays: 90, completionMode: "changed_material" })).status).toBe(200)
        expect((yield* put({ retrainingType: "none" })).status).toBe(200)
        const rows = yield* auditRows(token("owner"), lesson, "lesson.retraining_policy_set")
        expect(rows.map((row) => row.changes).reverse()).toEqual([
          {
            retrainingType: { old: "none", new: "recurring" },
            intervalDays: { old: null, new: 90 },
            completionMode: { old: null, new: "full_retake" }
          },
          { completionMode: { old: "full_retake", new: "changed_material" } },
          null,
          {
            retrainingType: { old: "recurring", new: "none" },
            intervalDays: { old: 90, new: null },
            completionMode: { old: "changed_material", new: null }
          }
        ])
        expect(rows.every((row) => row.targets.length === 1 && row.targets[0].id === lesson)).toBe(true)
        expect(yield* storedEventsNaming(lesson)).toEqual([])
      }))
  })

  describe("knowledge obligations", () => {
    it.effect("a new one is obligation.created with its event naming the person and the topic; asked again it is obligation.merged with what changed", () =>
      Effect.gen(function*() {
        const { freshToken, token, topicId, userId } = yield* setup
        const topic = topicId("forklift")
        const admin = yield* freshToken("admin")
        const created = yield* post("/v1/knowledge-obligations", admin, { userId: userId("ann"), itemType: "topic", itemId: topic, dueDays: 30, reason: "new site" })
        expect(created.status, created.text).toBe(200)
        const id = created.json.id
        const [event] = yield* shownEvents(token("owner"), "obligation.created", (found) => found.data.obligation.id === id, 1)
        expect(event.data).toEqual({
          obligation: { id, itemType: "topic", itemId: topic, required: true, dueDate: "2026-01-31T00:00:00.000Z" },
          person: person(userId("ann"))
        })
        const merged = yield* post("/v1/knowledge-obligations", admin, { userId: userId("ann"), itemType: "topic", itemId: topic, dueDays: 10 })
        expect(merged.status, merged.text).toBe(200)
        const rows = yield* auditRows(token("owner"), id)
        expect(rows.map((row) => [row.action, row.changes])).toEqual([
          ["obligation.merged", { dueDate: { old: "2026-01-31T00:00:00.000Z", new: "2026-01-11T00:00:00.000Z" } }],
          ["obligation.created", { required: { new: true }, dueDate: { new: "2026-01-31T00:00:00.000Z" }, reason: { new: "new site" } }]
        ])
        expect(rows[1].targets).toEqual([{ type: "obligation", id }, { type: "person", id: userId("ann") }, { type: "topic", id: topic }])
        expect(yield* storedEventsNaming(id)).toEqual(["obligation.created"])
      }))
  })

  describe("retraining assignments", () => {
    it.effect("of someone who completed the lesson: enrollment.created and obligation.created under one audit row; again while they owe it: obligation.merged", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const lesson = lessonId("open7")
        yield* execute((sql) => sql`
          INSERT INTO enrollments (org_id, id, user_id, lesson_id, status, enrolled_at, completed_at, score)
          SELECT org_id, ${"enr_journal_done_bob"}, id, ${lesson}, 'completed', now() - interval '40 days', now() - interval '30 days', 0.9
          FROM users WHERE id = ${userId("bob")}`)
        const admin = yield* freshToken("admin")
        const body = { userId: userId("bob"), lessonId: lesson, dueDays: 14, retrainingResetsClock: true, reason: "annual refresher" }
        const response = yield* post("/v1/retraining-assignments", admin, body)
        expect(response.status, response.text).toBe(200)
        const obligation = response.json.id

        const [enrolled] = yield* shownEvents(token("owner"), "enrollment.created", (event) => event.data.lesson.id === lesson, 1)
        expect(enrolled.data).toMatchObject({ lesson: { id: lesson, title: "Open lesson 7" }, person: person(userId("bob")) })
        const [owed] = yield* shownEvents(token("owner"), "obligation.created", (event) => event.data.obligation.id === obligation, 1)
        expect(owed.data.obligation).toEqual({ id: obligation, itemType: "lesson", itemId: lesson, required: true, dueDate: response.json.dueDate })

        expect((yield* post("/v1/retraining-assignments", admin, { ...body, dueDays: 7 })).status).toBe(200)
        const rows = yield* auditRows(token("owner"), obligation)
        expect(rows.map((row) => row.action)).toEqual(["obligation.merged", "enrollment.created"])
        expect(rows[1].targets).toEqual([{ type: "obligation", id: obligation }, { type: "person", id: userId("bob") }, { type: "lesson", id: lesson }])
        expect(rows[0].changes.dueDate.old).toBe(response.json.dueDate)
        expect((yield* storedEventsNaming(obligation))).toEqual(["obligation.created"])
      }))
  })
})
