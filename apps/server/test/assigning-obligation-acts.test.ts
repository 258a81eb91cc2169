import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, execute, post, query, storedObligation } from "./support/assigners.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * POST /v1/obligations/{id}/waive, /cancel, /due-date, /confirm-review
 * (docs/domain.md, Obligations): organization admins only; only an active
 * obligation (400 otherwise); the reason kept; a date set by hand that later
 * assignments never move, and null restoring the computed date;
 * confirm-review only for a flagged obligation. Another organization's
 * obligation, or an unknown id, is 404.
 */
const setup = assignersOnce
const act = (id: string, name: string) => `/v1/obligations/${id}/${name}`

/** A new lesson obligation of `person` on the lesson (assigned by an admin with a fresh token), its id. */
const lessonObligation = (lessonKey: string, person: string, due?: unknown) =>
  Effect.gen(function*() {
    const { freshToken, lessonId, userId } = yield* setup
    const lesson = lessonId(lessonKey)
    const response = yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), {
      audience: "users",
      userIds: [userId(person)],
      ...(due === undefined ? {} : { due })
    })
    expect(response.status).toBe(200)
    return yield* activeObligationId(lesson, userId(person))
  })

/** The notices of a kind a person was sent, oldest first. */
const noticesOf = (userId: string, kind: string) =>
  query((sql) =>
    sql<{ channel: string; notice: unknown }>`
      SELECT channel, notice FROM notifications WHERE user_id = ${userId} AND kind = ${kind} ORDER BY created_at, channel`
  ).pipe(Effect.map((rows) => rows.map((row) => ({ channel: row.channel, notice: row.notice }))))

const activeObligationId = (itemId: string, userId: string) =>
  query((sql) => sql<{ id: string }>`SELECT id FROM obligations WHERE item_id = ${itemId} AND user_id = ${userId} AND status = 'active'`).pipe(
    Effect.map((rows) => rows[0]!.id)
  )

layer(TestServerLive, { excludeTestServices: true })("the acts on one obligation", (it) => {
  describe("callers (every act)", () => {
    it.effect("bad tokens 401; no scope or a team admin: 403; another organization's admin or an unknown id: 404", () =>
      Effect.gen(function*() {
        const { badTokens, token } = yield* setup
        const id = yield* lessonObligation("open20", "ann")
        const bodies: Record<string, unknown> = {
          waive: { reason: "r" },
          cancel: { reason: "r" },
          "due-date": { dueDate: null },
          "confirm-review": {}
        }
        for (const [name, body] of Object.entries(bodies)) {
          for (const [kind, bad] of Object.entries(badTokens)) expectError(yield* post(act(id, name), bad, body), 401, "UNAUTHORIZED", `${name} ${kind}`)
          for (const caller of ["viewer", "external", "unscoped", "teamAdmin", "demoted"]) {
            const response = yield* post(act(id, name), token(caller), body)
            expectError(response, 403, "FORBIDDEN", `${name} ${caller}`)
          }
          expectError(yield* post(act(id, name), token("otto"), body), 404, "NOT_FOUND", `${name} otto`)
          expectError(yield* post(act("obl_made_up", name), token("owner"), body), 404, "NOT_FOUND", `${name} unknown`)
        }
        expect(yield* storedObligation(id)).toMatchObject({ status: "active", due_date_overridden: false, needs_review: false })
      }))
  })

  describe("waive and cancel", () => {
    it.effect("reason: required, non-blank, up to 2000 characters", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* lessonObligation("open19", "ann")
        for (const name of ["waive", "cancel"]) {
          for (const body of [{}, { reason: "   " }, { reason: "x".repeat(2001) }, { reason: 5 }]) {
            const response = yield* post(act(id, name), token("admin"), body)
            expectError(response, 400, "VALIDATION_ERROR", `${name} ${JSON.stringify(body).slice(0, 30)}`)
            expect(response.json.issues[0].path).toBe("reason")
          }
        }
        expect((yield* storedObligation(id))?.status).toBe("active")
      }))

    for (const [name, status] of [["waive", "waived"], ["cancel", "cancelled"]] as const) {
      it.effect(`${name}: an active obligation becomes ${status}, the reason kept; it cannot be undone (400 after)`, () =>
        Effect.gen(function*() {
          const { token, userId } = yield* setup
          const id = yield* lessonObligation(name === "waive" ? "open" : "open2", "ann")
          const response = yield* post(act(id, name), token("billingAdmin"), { reason: "Covered by the 2025 course" })
          expect(response.status).toBe(200)
          expect(response.json).toMatchObject({ id, userId: userId("ann"), itemType: "lesson", status, required: true })
          expect(yield* storedObligation(id)).toMatchObject({ status, end_reason: "Covered by the 2025 course" })
          const told = yield* noticesOf(userId("ann"), name === "waive" ? "ObligationWaived" : "ObligationCancelled")
          expect(told).toEqual([{ channel: "email", notice: expect.objectContaining({ reason: "Covered by the 2025 course" }) }, { channel: "sms", notice: expect.anything() }])
          for (const again of ["waive", "cancel", "due-date", "confirm-review"]) {
            const body = again === "due-date" ? { dueDate: "2031-01-01T00:00:00Z" } : again === "confirm-review" ? {} : { reason: "again" }
            const refused = yield* post(act(id, again), token("admin"), body)
            expectError(refused, 400, "OBLIGATION_STATE", again)
            expect(refused.json.message).toContain(status)
          }
          expect(yield* storedObligation(id)).toMatchObject({ status, end_reason: "Covered by the 2025 course", due_date_overridden: false })
        }))
    }

    it.effect("a topic obligation is waived too (nobody is told about it)", () =>
      Effect.gen(function*() {
        const { freshToken, topicId, token, userId } = yield* setup
        const created = yield* post("/v1/knowledge-obligations", yield* freshToken("admin"), {
          userId: userId("ann"),
          itemType: "topic",
          itemId: topicId("forklift")
        })
        const response = yield* post(act(created.json.id, "waive"), token("owner"), { reason: "Certified elsewhere" })
        expect(response.json).toMatchObject({ itemType: "topic", status: "waived" })
        expect(yield* noticesOf(userId("ann"), "ObligationWaived")).toHaveLength(2)
      }))
  })

  describe("due-date", () => {
    it.effect("dueDate: required; an ISO 8601 date and time with a UTC offset, or null", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* lessonObligation("open18", "ann")
        for (const body of [{}, { dueDate: "2031-01-01" }, { dueDate: "2031-01-01T00:00:00" }, { dueDate: 5 }]) {
          const response = yield* post(act(id, "due-date"), token("admin"), body)
          expectError(response, 400, "VALIDATION_ERROR", JSON.stringify(body))
          expect(response.json.issues[0].path).toBe("dueDate")
        }
      }))

    it.effect("a date set by hand is shown and overridden; later assignments do not move it; null restores the computed date", () =>
      Effect.gen(function*() {
        const { freshToken, lessonId, token, userId } = yield* setup
        const id = yield* lessonObligation("open3", "bob", { type: "date", date: "2031-06-01T00:00:00Z" })
        const set = yield* post(act(id, "due-date"), token("admin"), { dueDate: "2032-01-01T09:00:00+01:00" })
        expect(set.status).toBe(200)
        expect(set.json).toMatchObject({ id, status: "active", dueDate: "2032-01-01T08:00:00.000Z", dueDateOverridden: true, needsReview: false })
        expect(yield* noticesOf(userId("bob"), "DueDateChanged")).toEqual([
          { channel: "email", notice: { _tag: "DueDateChanged", lessonId: lessonId("open3"), title: "Open lesson 3", dueDate: "2032-01-01T08:00:00.000Z" } }
        ])
        // Assigned again with an earlier date: the date set by hand stays.
        const again = yield* post(`/v1/lessons/${lessonId("open3")}/assignments`, yield* freshToken("admin"), {
          audience: "users",
          userIds: [userId("bob")],
          due: { type: "date", date: "2031-03-01T00:00:00Z" }
        })
        expect(again.status).toBe(200)
        expect((yield* storedObligation(id))?.due_date?.toISOString()).toBe("2032-01-01T08:00:00.000Z")
        // Removing the override shows the computed date, which the later assignment moved earlier.
        const removed = yield* post(act(id, "due-date"), token("admin"), { dueDate: null })
        expect(removed.json).toMatchObject({ dueDate: "2031-03-01T00:00:00.000Z", dueDateOverridden: false })
      }))

    it.effect("removing the override of an obligation with no computed date leaves no deadline", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* lessonObligation("open4", "cat")
        expect((yield* post(act(id, "due-date"), token("owner"), { dueDate: "2031-01-01T00:00:00Z" })).json.dueDate).toBe("2031-01-01T00:00:00.000Z")
        expect((yield* post(act(id, "due-date"), token("owner"), { dueDate: null })).json).toMatchObject({ dueDate: null, dueDateOverridden: false })
      }))
  })

  describe("confirm-review", () => {
    it.effect("refused (400) unless the obligation is flagged needsReview; nothing changes", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* lessonObligation("open5", "ann", { type: "date", date: "2031-06-01T00:00:00Z" })
        const response = yield* post(act(id, "confirm-review"), token("admin"), { resolvedDueDate: "2031-07-01T00:00:00Z" })
        expectError(response, 400, "OBLIGATION_STATE")
        expect(response.json.message).toContain("needsReview")
        expect((yield* storedObligation(id))?.due_date?.toISOString()).toBe("2031-06-01T00:00:00.000Z")
      }))

    it.effect("sets the resolved date and clears needsReview; left out or null: no due date", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        for (const [lesson, body, expected] of [
          ["open6", { resolvedDueDate: "2031-07-01T12:00:00-04:00" }, "2031-07-01T16:00:00.000Z"],
          ["open7", {}, null],
          ["open8", { resolvedDueDate: null }, null]
        ] as const) {
          const id = yield* lessonObligation(lesson, "ann", { type: "date", date: "2031-06-01T00:00:00Z" })
          yield* execute((sql) => sql`UPDATE obligations SET needs_review = true, computed_due_date = due_date WHERE id = ${id}`)
          const response = yield* post(act(id, "confirm-review"), token("admin"), body)
          expect(response.status, lesson).toBe(200)
          expect(response.json, lesson).toMatchObject({ id, needsReview: false, dueDate: expected, dueDateOverridden: false })
          expect(yield* storedObligation(id), lesson).toMatchObject({ needs_review: false })
          expectError(yield* post(act(id, "confirm-review"), token("admin"), body), 400, "OBLIGATION_STATE", `${lesson} again`)
        }
      }))

    it.effect("resolvedDueDate must be a date and time with a UTC offset", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const id = yield* lessonObligation("open9", "ann")
        const response = yield* post(act(id, "confirm-review"), token("admin"), { resolvedDueDate: "soon" })
        expectError(response, 400, "VALIDATION_ERROR")
        expect(response.json.issues[0].path).toBe("resolvedDueDate")
      }))
  })
})
