import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assignersOnce, execute, post, query, storedObligation } from "./support/assigners.js"
import { clearOfMinuteEnd } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { TestServerLive } from "./support/server.js"

/**
 * Each assigning route takes 30 calls a minute and 300 an hour per
 * access token, counted per route. Past it: 429 with Retry-After and the
 * RateLimit-* headers, and the act is not done.
 */
const setup = assignersOnce

layer(TestServerLive, { excludeTestServices: true })("the assigning rate limits", (it) => {
  it.effect("the 31st call to one route within a minute is 429 with Retry-After and is not done; other routes and other tokens go on", () =>
    Effect.gen(function*() {
      const { freshToken, lessonId, userId } = yield* setup
      const owner = yield* freshToken("owner")
      const assigned = yield* post(`/v1/lessons/${lessonId("open")}/assignments`, owner, { audience: "users", userIds: [userId("ann")] })
      expect(assigned.status).toBe(200)
      expect(assigned.headers.get("ratelimit-limit")).toBe("30")
      expect(assigned.headers.get("ratelimit-remaining")).toBe("29")

      const token = yield* freshToken("admin")
      yield* clearOfMinuteEnd
      // Calls that are refused by the act still count: 30 waivers of an unknown obligation.
      for (let i = 0; i < 30; i++) {
        const response = yield* post("/v1/obligations/obl_made_up/waive", token, { reason: "r" })
        expectError(response, 404, "NOT_FOUND", `call ${i + 1}`)
        expect(response.headers.get("ratelimit-remaining"), `call ${i + 1}`).toBe(String(29 - i))
      }
      const [active] = yield* activeIds(lessonId("open"))
      const refused = yield* post(`/v1/obligations/${active}/waive`, token, { reason: "r" })
      expect(refused.status).toBe(429)
      expect(refused.json).toMatchObject({ code: "RATE_LIMITED", limit: 30, retryAfterSeconds: expect.any(Number) })
      const retryAfter = Number(refused.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(refused.headers.get("ratelimit-remaining")).toBe("0")
      expect((yield* storedObligation(active!))?.status).toBe("active")

      // Counted per route: the same token still cancels; another token still waives.
      expectError(yield* post("/v1/obligations/obl_made_up/cancel", token, { reason: "r" }), 404, "NOT_FOUND", "cancel")
      const other = yield* post(`/v1/obligations/${active}/waive`, yield* freshToken("admin"), { reason: "r" })
      expect(other.json).toMatchObject({ status: "waived" })
    }))

  it.effect("300 calls in the hour: the next is 429 with the hour's limit and a Retry-After up to the end of the hour", () =>
    Effect.gen(function*() {
      const { freshToken, orgId } = yield* setup
      const token = yield* freshToken("owner")
      yield* clearOfMinuteEnd
      expectError(yield* post("/v1/obligations/obl_made_up/cancel", token, { reason: "r" }), 404, "NOT_FOUND", "first")
      // The hour's window already holds 300 calls of this token on this route (the minute's holds 1).
      yield* execute((sql) => sql`
        UPDATE rate_limit_counters SET hits = ARRAY[hits[1], 300]
        WHERE org_id = ${orgId} AND rule = 'assigning:cancel' AND window_seconds = ARRAY[60, 3600]`)
      const refused = yield* post("/v1/obligations/obl_made_up/cancel", token, { reason: "r" })
      expect(refused.status).toBe(429)
      expect(refused.json).toMatchObject({ code: "RATE_LIMITED", limit: 300 })
      const retryAfter = Number(refused.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(3600)
    }))
})

const activeIds = (lessonId: string) =>
  query((sql) => sql<{ id: string }>`SELECT id FROM obligations WHERE item_id = ${lessonId} AND status = 'active'`).pipe(
    Effect.map((rows) => rows.map((row) => row.id))
  )
