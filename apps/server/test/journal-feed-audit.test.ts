import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, post, query } from "./support/assigners.js"
import { feedCaughtUp } from "./support/journal.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/events and GET /v1/audit-events (docs/domain.md, Events and the
 * audit log): organization admins only; an act's event and audit row are
 * written in its transaction, so a refused act leaves neither; the feed
 * pages by position and never shows another organization's events.
 */
const setup = assignersOnce

const lessonObligation = (lessonKey: string, person: string) =>
  Effect.gen(function*() {
    const { freshToken, lessonId, userId } = yield* setup
    const lesson = lessonId(lessonKey)
    const response = yield* post(`/v1/lessons/${lesson}/assignments`, yield* freshToken("admin"), {
      audience: "users",
      userIds: [userId(person)]
    })
    expect(response.status).toBe(200)
    const [row] = yield* query((sql) =>
      sql<{ id: string }>`SELECT id FROM obligations WHERE item_id = ${lesson} AND user_id = ${userId(person)} AND status = 'active'`
    )
    return row!.id
  })

/** The feed as the holder of `token` reads it, once it shows every event the organization's acts have stored. */
const feed = (token: string, query = "") =>
  Effect.gen(function*() {
    const { orgId, token: tokenOf } = yield* setup
    yield* feedCaughtUp(tokenOf("owner"), orgId)
    return yield* raw("GET", `/v1/events${query}`, { token })
  })
const audit = (token: string, query = "") => raw("GET", `/v1/audit-events${query}`, { token })

layer(TestServerLive, { excludeTestServices: true })("the event feed and the audit log", (it) => {
  describe("callers", () => {
    it.effect("bad tokens 401; anyone but an organization admin 403", () =>
      Effect.gen(function*() {
        const { badTokens, token } = yield* setup
        for (const path of ["/v1/events", "/v1/audit-events"]) {
          for (const [kind, bad] of Object.entries(badTokens)) expectError(yield* raw("GET", path, { token: bad }), 401, "UNAUTHORIZED", `${path} ${kind}`)
          for (const caller of ["viewer", "external", "teamAdmin"]) {
            expectError(yield* raw("GET", path, { token: token(caller) }), 403, "FORBIDDEN", `${path} ${caller}`)
          }
          expect((yield* raw("GET", path, { token: token("owner") })).status).toBe(200)
        }
      }))
  })

  describe("an act's trace", () => {
    it.effect("waiving writes one obligation.waived event naming the person, and one audit row with who, from where and what changed", () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const id = yield* lessonObligation("open20", "ann")
        const admin = yield* setup.pipe(Effect.flatMap((s) => s.freshToken("admin")))
        const response = yield* raw("POST", `/v1/obligations/${id}/waive`, {
          token: admin,
          body: JSON.stringify({ reason: "covered by the spring course" }),
          headers: { "user-agent": "journal-test/1.0", "x-request-id": "req-journal-waive-1" }
        })
        expect(response.status).toBe(200)

        const events = (yield* feed(token("owner"), "?type=obligation.waived")).json
        const waived = events.data.filter((event: any) => event.data.obligation.id === id)
        expect(waived).toHaveLength(1)
        expect(waived[0]).toMatchObject({
          type: "obligation.waived",
          organizationId: (yield* setup).orgId,
          actor: { type: "person", personId: userId("admin") },
          data: {
            obligation: { id, itemType: "lesson", required: true },
            person: { id: userId("ann"), name: expect.any(String), email: expect.any(String) },
            reason: "covered by the spring course"
          }
        })
        expect(waived[0].id).toMatch(/^evt_/)
        expect(typeof waived[0].position).toBe("number")

        const rows = (yield* audit(token("owner"), `?target=${id}&type=obligation.waived`)).json.data
        expect(rows).toHaveLength(1)
        expect(rows[0]).toMatchObject({
          action: "obligation.waived",
          actor: { type: "person", personId: userId("admin"), tokenId: expect.stringMatching(/^tok_/) },
          targets: [{ type: "obligation", id }, { type: "person", id: userId("ann") }],
          changes: { status: { old: "active", new: "waived" }, reason: { new: "covered by the spring course" } },
          requestId: "req-journal-waive-1",
          userAgent: "journal-test/1.0",
          clientIp: expect.any(String)
        })
      }))

    it.effect("an act refused (an obligation no longer active) leaves no event and no audit row", () =>
      Effect.gen(function*() {
        const { freshToken, token } = yield* setup
        const id = yield* lessonObligation("open19", "ann")
        const admin = yield* freshToken("admin")
        expect((yield* post(`/v1/obligations/${id}/cancel`, admin, { reason: "first" })).status).toBe(200)
        expectError(yield* post(`/v1/obligations/${id}/waive`, admin, { reason: "second" }), 400, "OBLIGATION_STATE", "waive after cancel")
        const rows = (yield* audit(token("owner"), `?target=${id}`)).json.data
        expect(rows.map((row: any) => row.action)).toEqual(["obligation.cancelled"])
        const events = (yield* feed(token("owner"))).json.data.filter((event: any) => event.data.obligation?.id === id)
        expect(events.map((event: any) => event.type)).toEqual(["obligation.created", "obligation.cancelled"])
      }))

    it.effect("a due date set by hand is obligation.due_date_changed, with the previous date and only the fields that changed", () =>
      Effect.gen(function*() {
        const { freshToken, token } = yield* setup
        const id = yield* lessonObligation("open18", "bob")
        const response = yield* post(`/v1/obligations/${id}/due-date`, yield* freshToken("admin"), { dueDate: "2031-01-02T03:04:05.000Z" })
        expect(response.status).toBe(200)
        const [row] = (yield* audit(token("owner"), `?target=${id}&type=obligation.due_date_changed`)).json.data
        expect(row.changes).toEqual({
          dueDate: { old: null, new: "2031-01-02T03:04:05.000Z" },
          dueDateOverridden: { old: false, new: true }
        })
        const [event] = (yield* feed(token("owner"), "?type=obligation.due_date_changed")).json.data.filter((event: any) =>
          event.data.obligation.id === id
        )
        expect(event.data).toMatchObject({ previousDueDate: null, obligation: { dueDate: "2031-01-02T03:04:05.000Z" } })
      }))
  })

  describe("the feed", () => {
    it.effect("pages by position from `after`, ascending, with a cursor while more follow; another organization sees none of it", () =>
      Effect.gen(function*() {
        const { freshToken, token } = yield* setup
        for (const person of ["cat", "eve"]) {
          const id = yield* lessonObligation("open17", person)
          expect((yield* post(`/v1/obligations/${id}/waive`, yield* freshToken("admin"), { reason: "r" })).status).toBe(200)
        }
        const all = (yield* feed(token("owner"), "?limit=100")).json.data as Array<{ position: number }>
        expect(all.length).toBeGreaterThanOrEqual(2)
        const positions = all.map((event) => event.position)
        expect(positions).toEqual([...positions].sort((a, b) => a - b))

        const first = (yield* feed(token("owner"), "?limit=1")).json
        expect(first.data).toHaveLength(1)
        expect(first.data[0].position).toBe(positions[0])
        const second = (yield* feed(token("owner"), `?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).json
        expect(second.data[0].position).toBe(positions[1])
        const fromAfter = (yield* feed(token("owner"), `?limit=1&after=${positions[0]}`)).json
        expect(fromAfter.data[0].position).toBe(positions[1])
        expectError(yield* feed(token("owner"), `?limit=1&type=obligation.cancelled&cursor=${encodeURIComponent(first.nextCursor)}`), 400, "INVALID_CURSOR", "cursor of another listing")

        const last = positions[positions.length - 1]!
        const end = (yield* feed(token("owner"), `?after=${last}`)).json
        expect(end).toEqual({ data: [], nextCursor: null })

        expect((yield* feed(token("otto"))).json.data).toEqual([])
      }))

    it.effect("an `after` that is not a position, or an unknown type, is 400", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        for (const q of ["?after=abc", "?after=-1", "?type=nothing.happened", "?limit=0"]) {
          expectError(yield* feed(token("owner"), q), 400, "VALIDATION_ERROR", q)
        }
      }))
  })

  describe("the audit log", () => {
    it.effect("newest first; filters by actor, type and time; a malformed time is 400", () =>
      Effect.gen(function*() {
        const { freshToken, token, userId } = yield* setup
        const id = yield* lessonObligation("open16", "eve")
        expect((yield* post(`/v1/obligations/${id}/cancel`, yield* freshToken("admin"), { reason: "r" })).status).toBe(200)
        const mine = (yield* audit(token("owner"), `?actor=${userId("admin")}&limit=100`)).json.data as Array<any>
        expect(mine.length).toBeGreaterThan(0)
        expect(mine.every((row) => row.actor.personId === userId("admin"))).toBe(true)
        const times = mine.map((row) => row.occurredAt)
        expect(times).toEqual([...times].sort().reverse())
        expect((yield* audit(token("owner"), `?actor=${userId("ann")}`)).json.data).toEqual([])
        expect((yield* audit(token("owner"), "?since=2100-01-01T00:00:00Z")).json.data).toEqual([])
        expect((yield* audit(token("owner"), `?until=2000-01-01T00:00:00Z`)).json.data).toEqual([])
        expectError(yield* audit(token("owner"), "?since=yesterday"), 400, "VALIDATION_ERROR", "since")
        expect((yield* audit(token("otto"), `?target=${id}`)).json.data).toEqual([])
      }))
  })
})
