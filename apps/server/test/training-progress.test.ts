import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { trainco } from "@tks/core/testing/training-reads"
import { UserId } from "@tks/domain/ids"
import { badTokens, callerMatrixOnce } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/** Train Co (packages/core/testing/training-reads.ts): Lena reports to Victor and is on Floor, which Tara administers. */
const setup = callerMatrixOnce(trainco)

const progressOf = (id: string, token: string | undefined) => raw("GET", `/v1/people/${id}/progress`, { token })

layer(TestServerLive, { excludeTestServices: true })("GET /v1/people/{id}/progress", (it) => {
  it.effect("an organization admin reads a person's progress: the own lists' entries and the summary counts", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      const response = yield* progressOf(lena, tokens.billingAdmin)
      expect(response.status).toBe(200)
      expect(response.json.user).toEqual({ id: lena, name: "Lena Learner", email: "lena@train.test" })
      expect(response.json.summary).toEqual({ enrollmentCount: 4, completedCount: 1, obligationCount: 6, overdueCount: 1 })
      // The same entries as Lena's own lists, titles of lessons only admins read included.
      const own = yield* raw("GET", "/v1/me/enrollments", { token: result.tokens.lena })
      const owed = yield* raw("GET", "/v1/me/obligations", { token: result.tokens.lena })
      expect(response.json.enrollments).toEqual(own.json.data)
      expect(response.json.obligations).toEqual(owed.json.data)
      expect(Object.keys(response.json).sort()).toEqual(["enrollments", "obligations", "summary", "user"])
    }))

  it.effect("the person themself reads their own progress, whatever their role, an external account included", () =>
    Effect.gen(function*() {
      const { result, tokens, userIds } = yield* setup
      const lena = yield* (yield* clientFor(result.tokens.lena)).training.progress({ path: { id: UserId.make(result.ids.people.lena!) } })
      expect(lena.summary).toEqual({ enrollmentCount: 4, completedCount: 1, obligationCount: 6, overdueCount: 1 })
      const victor = yield* progressOf(userIds.viewer, tokens.viewer)
      expect(victor.json.summary).toEqual({ enrollmentCount: 1, completedCount: 0, obligationCount: 1, overdueCount: 0 })
      const ella = yield* progressOf(userIds.external, tokens.external)
      expect(ella.status).toBe(200)
      expect(ella.json).toMatchObject({ enrollments: [], obligations: [], summary: { enrollmentCount: 0, obligationCount: 0 } })
    }))

  it.effect("a person who has left is found by an admin, with their history", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* progressOf(result.ids.people.gwen!, tokens.owner)
      expect(response.status).toBe(200)
      expect(response.json.enrollments).toEqual([
        expect.objectContaining({ id: result.ids.enrollments.gwenBasics, status: "completed", score: 0.85 })
      ])
      expect(response.json.summary).toEqual({ enrollmentCount: 1, completedCount: 1, obligationCount: 1, overdueCount: 0 })
    }))

  it.effect("her manager, the admin of her team, an external account and anyone else but herself get 404", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      for (const kind of ["viewer", "teamAdmin", "external", "otherOrgAdmin"] as const) {
        expectError(yield* progressOf(lena, tokens[kind]), 404, "NOT_FOUND", kind)
      }
      expectError(yield* progressOf(result.ids.people.owner!, result.tokens.lena), 404, "NOT_FOUND", "Lena on the owner")
    }))

  it.effect("an id of another organization and an unknown id are 404 for an admin; a person who never signed up is found", () =>
    Effect.gen(function*() {
      const { other, result, tokens } = yield* setup
      expectError(yield* progressOf(other.ids.people.pia!, tokens.admin), 404, "NOT_FOUND", "other organization")
      expectError(yield* progressOf("usr_nope", tokens.admin), 404, "NOT_FOUND", "unknown")
      // Dan never signed up, yet has a record in the organization: an admin finds him, with nothing on it.
      const dan = yield* progressOf(result.ids.people.dan!, tokens.admin)
      expect(dan.json.summary).toEqual({ enrollmentCount: 0, completedCount: 0, obligationCount: 0, overdueCount: 0 })
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) expectError(yield* progressOf(result.ids.people.lena!, tokens[kind]), 401, "UNAUTHORIZED", kind)
    }))
})
