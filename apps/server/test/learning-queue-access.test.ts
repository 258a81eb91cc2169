import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { badTokens, callerKinds, type CallerKind } from "./support/callers.js"
import { clearOfMinuteEnd } from "./support/contributors.js"
import { line, queueOrganization } from "./support/learning-queue.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * Who reads a learning queue: the person, an
 * organization admin, a manager at any depth of the reporting line; anyone
 * else 404. What the entries are is learning-queue-entries.test.ts.
 */
const setup = queueOrganization

const queuePath = (personId: string, query = "") => `/v1/people/${encodeURIComponent(personId)}/learning-queue${query}`

const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]

layer(TestServerLive, { excludeTestServices: true })("learning queue: who may read it", (it) => {
  it.effect("the person, their manager, their manager's manager and every organization admin read the same queue", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      const own = yield* raw("GET", "/v1/me/learning-queue", { token: result.tokens.lena })
      expect(own.status).toBe(200)
      expect(own.json.total).toBe(7)
      for (const [label, token] of [["lena", result.tokens.lena], ["mike (depth 1)", result.tokens.mike], ["gina (depth 2)", result.tokens.gina]] as const) {
        const response = yield* raw("GET", queuePath(lena), { token })
        expect(response.status, label).toBe(200)
        expect(response.json.user, label).toEqual({ id: lena, name: "Lena Learner", email: "lena@queue.test" })
        expect(response.json.data.map(line), label).toEqual(own.json.data.map(line))
        expect(response.json.total, label).toBe(7)
        expect(response.json.nextCursor, label).toBeNull()
      }
      // Admins also open the vault: its two topics stand where the vault lesson stood (learning-queue-entries.test.ts).
      for (const kind of admins) {
        const response = yield* raw("GET", queuePath(lena), { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json.total, kind).toBe(8)
      }
    }))

  it.effect("a peer, a team admin of the person's team who is not their manager, a viewer and an external account get 404", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      const callers = [["pete (peer)", result.tokens.pete], ["teamAdmin", tokens.teamAdmin], ["viewer", tokens.viewer], ["external", tokens.external]]
      for (const [label, token] of callers) {
        expectError(yield* raw("GET", queuePath(lena), { token }), 404, "NOT_FOUND", label)
      }
      // Nor may a report read their manager's queue.
      expectError(yield* raw("GET", queuePath(result.ids.people.mike!), { token: result.tokens.lena }), 404, "NOT_FOUND", "lena -> mike")
    }))

  it.effect("another organization's ids and unknown ids are 404, also for organization admins", () =>
    Effect.gen(function*() {
      const { other, result, tokens } = yield* setup
      expectError(yield* raw("GET", queuePath(result.ids.people.lena!), { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", "other org admin")
      expectError(yield* raw("GET", queuePath(other.ids.people.otto!), { token: tokens.admin }), 404, "NOT_FOUND", "other org's id")
      expectError(yield* raw("GET", queuePath("user_doesnotexist"), { token: tokens.admin }), 404, "NOT_FOUND", "unknown id")
      expectError(yield* raw("GET", queuePath("not an id at all"), { token: tokens.admin }), 404, "NOT_FOUND", "malformed id")
    }))

  it.effect("a person who has left is found and has an empty queue with total 0, for an admin and for their manager", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const dora = result.ids.people.dora!
      for (const [label, token] of [["admin", tokens.admin], ["mike", result.tokens.mike]] as const) {
        const response = yield* raw("GET", queuePath(dora), { token })
        expect(response.status, label).toBe(200)
        expect(response.json, label).toEqual({
          user: { id: dora, name: "Dora Departed", email: "dora@queue.test" },
          data: [],
          nextCursor: null,
          total: 0
        })
      }
    }))

  it.effect("every caller of the matrix reads their own queue; a missing, unknown, expired or revoked token is 401 on both reads", () =>
    Effect.gen(function*() {
      const { result, tokens, userIds } = yield* setup
      for (const kind of callerKinds) {
        const response = yield* raw("GET", "/v1/me/learning-queue", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json, kind).toMatchObject({ data: expect.any(Array), nextCursor: null, total: response.json.data.length })
        const own = yield* raw("GET", queuePath(userIds[kind]), { token: tokens[kind] })
        expect(own.status, kind).toBe(200)
        expect(own.json.user.id, kind).toBe(userIds[kind])
      }
      for (const bad of badTokens) {
        expectError(yield* raw("GET", "/v1/me/learning-queue", { token: tokens[bad] }), 401, "UNAUTHORIZED", bad)
        expectError(yield* raw("GET", queuePath(result.ids.people.lena!), { token: tokens[bad] }), 401, "UNAUTHORIZED", bad)
      }
    }))

  it.effect("20 reads a minute per token, shared by both routes: the 21st is 429 with Retry-After, and nothing is read", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const token = result.tokens.rae!
      const self = queuePath(result.ids.people.rae!)
      yield* clearOfMinuteEnd
      const granted = []
      for (let i = 0; i < 20; i++) granted.push(yield* raw("GET", i % 2 === 0 ? "/v1/me/learning-queue" : self, { token }))
      expect(granted.map((r) => r.status)).toEqual(Array(20).fill(200))
      expect(granted.map((r) => r.headers.get("ratelimit-limit"))).toEqual(Array(20).fill("20"))
      expect(granted.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(Array.from({ length: 20 }, (_, i) => String(19 - i)))
      for (const path of ["/v1/me/learning-queue", self]) {
        const refused = yield* raw("GET", path, { token })
        expectError(refused, 429, "RATE_LIMITED", path)
        const retryAfter = refused.headers.get("retry-after")
        expect(retryAfter, path).toMatch(/^[1-9]\d*$/)
        expect(Number(retryAfter), path).toBeLessThanOrEqual(60)
        expect(refused.json, path).toMatchObject({ limit: 20, retryAfterSeconds: Number(retryAfter) })
      }
      // Another token of the organization has its own count.
      expect((yield* raw("GET", "/v1/me/learning-queue", { token: result.tokens.pete })).status).toBe(200)
    }))
})
