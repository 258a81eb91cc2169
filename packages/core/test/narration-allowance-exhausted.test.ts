import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber, Schema } from "effect"
import { readerKeys } from "@tks/core/testing/narrators"
import { narrationMonth, narrationMonthlyAllowance, NarrationRequest } from "@tks/domain/narration"
import { Narration } from "../src/narration/service.js"
import { narrating, NarrationTestLayer, narratorsOnce, startMonthAt, usedThisMonth } from "./support/narration.js"

/**
 * When a month's narration allowance is exhausted (docs/domain.md, Events
 * and the audit log): when the characters kept, not merely reserved, fill
 * it. Kept characters are never given back, so that happens at one
 * settlement a month, which is recorded as `narration.allowance_exhausted`
 * with its event; every other kept narration is `narration.synthesized`.
 */
const setup = narratorsOnce()
const request = (text: string) => Schema.decodeUnknownSync(NarrationRequest)({ text })

/** The organization's exhaustion events' data, and its narration audit rows' actions, oldest first. */
const journalOf = (orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const events = yield* sql<{ data: unknown }>`
      SELECT data FROM events WHERE org_id = ${orgId} AND type = 'narration.allowance_exhausted' ORDER BY position`
    const audit = yield* sql<{ action: string }>`
      SELECT action FROM audit_events WHERE org_id = ${orgId} AND action LIKE 'narration.%' ORDER BY occurred_at, id`
    return { events: events.map((row) => row.data), actions: audit.map((row) => row.action) }
  })

layer(NarrationTestLayer, { excludeTestServices: true })("the narration allowance exhausted", (it) => {
  it.effect("the narration whose characters fill the allowance emits narration.allowance_exhausted once; the refusals after it emit nothing", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - 15)
      const before = yield* journalOf(org.organizationId)
      const narration = yield* Narration
      const viewer = narrating(org.actor("viewer"))
      yield* narration.synthesize(viewer, request("five!"))
      yield* narration.synthesize(viewer, request("ten chars!"))
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance)
      for (const text of ["a", "more text"]) {
        expect(yield* Effect.flip(narration.synthesize(viewer, request(text)))).toMatchObject({ code: "NARRATION_QUOTA_EXCEEDED" })
      }
      const after = yield* journalOf(org.organizationId)
      expect(after.events.slice(before.events.length)).toEqual([{ month: narrationMonth(Date.now()).key, allowance: narrationMonthlyAllowance }])
      expect(after.actions.slice(before.actions.length)).toEqual(["narration.synthesized", "narration.allowance_exhausted"])
    }))

  it.effect("characters reserved by a request still speaking do not exhaust it (they may be given back); the narration that fills it once they are does", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - 30)
      const before = yield* journalOf(org.organizationId)
      const narration = yield* Narration
      // 13 characters reserved by speech that never answers: given back when it times out.
      const hanging = yield* Effect.fork(Effect.either(narration.synthesize(narrating(org.actor("reader01")), request("c [hang] long"))))
      while ((yield* usedThisMonth(org.organizationId)) < narrationMonthlyAllowance - 17) yield* Effect.sleep(Duration.millis(10))
      // 17 kept: the count is at the allowance, with 13 of it only reserved.
      yield* narration.synthesize(narrating(org.actor("reader02")), request("seventeen chars!!"))
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance)
      expect((yield* journalOf(org.organizationId)).events).toHaveLength(before.events.length)

      yield* Fiber.join(hanging)
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance - 13)
      yield* narration.synthesize(narrating(org.actor("reader03")), request("thirteen chr!"))
      expect(yield* Effect.flip(narration.synthesize(narrating(org.actor("reader03")), request("x")))).toMatchObject({ code: "NARRATION_QUOTA_EXCEEDED" })
      const after = yield* journalOf(org.organizationId)
      expect(after.events).toHaveLength(before.events.length + 1)
      expect(after.actions.slice(before.actions.length)).toEqual(["narration.synthesized", "narration.allowance_exhausted"])
    }))

  it.effect("fifty requests of ten people at once at the edge: exactly one narration.allowance_exhausted", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - 100)
      const before = yield* journalOf(org.organizationId)
      const narration = yield* Narration
      yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => readerKeys[i % 10]!),
        (key) => Effect.either(narration.synthesize(narrating(org.actor(key)), request("ten chars!"))),
        { concurrency: "unbounded" }
      )
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance)
      const after = yield* journalOf(org.organizationId)
      expect(after.events).toHaveLength(before.events.length + 1)
      const actions = after.actions.slice(before.actions.length)
      expect(actions.filter((action) => action === "narration.synthesized")).toHaveLength(9)
      expect(actions.filter((action) => action === "narration.allowance_exhausted")).toHaveLength(1)
    }))
})
