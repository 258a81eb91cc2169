import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Schema } from "effect"
import { narrationMonth, narrationMonthlyAllowance, narrationVoiceIds, NarrationRequest } from "@tks/domain/narration"
import { policies } from "@tks/domain/policies"
import { readerKeys } from "@tks/core/testing/narrators"
import { reapDeadReservations } from "../src/narration/reaper.js"
import { Narration } from "../src/narration/service.js"
import { allowed } from "./support/access.js"
import { narrating, NarrationTestLayer, narratorsOnce, requestRecords, speech, startMonthAt, usedThisMonth } from "./support/narration.js"

const setup = narratorsOnce()
const request = (text: string, voiceId?: string) => Schema.decodeUnknownSync(NarrationRequest)(voiceId === undefined ? { text } : { text, voiceId })

layer(NarrationTestLayer, { excludeTestServices: true })("the narration allowance", (it) => {
  it.effect("the trimmed text's characters are reserved, kept when speech succeeds, and recorded against the token without the text", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 0)
      const narration = yield* Narration
      const { answer } = yield* narration.synthesize(narrating(org.actor("viewer")), request("  Safety first, 2 helmets 😀  "))
      // Code points: the emoji counts once.
      expect(answer.characters).toBe(25)
      expect(answer.words.map((w) => w.word)).toEqual(["Safety", "first,", "2", "helmets", "😀"])
      expect(answer.audio).toMatchObject({ format: "mp3_44100_128", mimeType: "audio/mpeg", base64: "//uQxA==" })
      expect(speech.calls.at(-1)).toBe("Safety first, 2 helmets 😀")
      expect(yield* usedThisMonth(org.organizationId)).toBe(25)
      expect(yield* requestRecords(org.organizationId)).toEqual([expect.objectContaining({
        outcome: "COMPLETED",
        characters: 25,
        token_id: org.actor("viewer").tokenId,
        user_id: org.userId("viewer"),
        voice_id: narrationVoiceIds[0],
        provider: "scripted",
        settled: true
      })])
      const sql = yield* SqlClient.SqlClient
      const columns = yield* sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'narration_requests'`
      expect(columns.map((c) => c.column_name)).not.toContain("text")
    }))

  it.effect("the voice asked for is passed on; none asked for is the first catalog voice", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 0)
      const narration = yield* Narration
      yield* narration.synthesize(narrating(org.actor("viewer")), request("Hello there", narrationVoiceIds[4]))
      yield* narration.synthesize(narrating(org.actor("viewer")), request("Hello again"))
      expect((yield* requestRecords(org.organizationId)).map((r) => r.voice_id)).toEqual([narrationVoiceIds[4], narrationVoiceIds[0]])
    }))

  it.effect("a provider that produces nothing gets the reservation given back: 503 NARRATION_PROVIDER_FAILED, 0 counted", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 500)
      const narration = yield* Narration
      const error = yield* Effect.flip(narration.synthesize(narrating(org.actor("viewer")), request("This will [fail] now")))
      expect(error).toMatchObject({ _tag: "NarrationProviderFailed", code: "NARRATION_PROVIDER_FAILED", charactersCounted: 0 })
      expect(error.message).toMatch(/nothing was counted/)
      expect(yield* usedThisMonth(org.organizationId)).toBe(500)
      expect((yield* requestRecords(org.organizationId)).map((r) => [r.outcome, r.characters])).toEqual([["PROVIDER_FAILED", 20]])
    }))

  it.effect("audio whose word timings cannot be read keeps the characters counted, and the 503 says so", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 500)
      const narration = yield* Narration
      const error = yield* Effect.flip(narration.synthesize(narrating(org.actor("viewer")), request("No timings [unreadable] here")))
      expect(error).toMatchObject({ _tag: "NarrationProviderFailed", code: "NARRATION_PROVIDER_FAILED", charactersCounted: 28 })
      expect(error.message).toMatch(/word timings could not be read; the 28 characters stay counted/)
      expect(yield* usedThisMonth(org.organizationId)).toBe(528)
      expect((yield* requestRecords(org.organizationId)).map((r) => r.outcome)).toEqual(["TIMINGS_UNREADABLE"])
    }))

  it.effect("timings an adapter let through that go back in time are caught by the service: counted, 503", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 0)
      const narration = yield* Narration
      const error = yield* Effect.flip(narration.synthesize(narrating(org.actor("viewer")), request("one two [backwards] three")))
      expect(error).toMatchObject({ code: "NARRATION_PROVIDER_FAILED", charactersCounted: 25 })
      expect(yield* usedThisMonth(org.organizationId)).toBe(25)
      expect((yield* requestRecords(org.organizationId)).map((r) => r.outcome)).toEqual(["TIMINGS_UNREADABLE"])
    }))

  it.effect("speech that never comes back times out and is given back", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 0)
      const narration = yield* Narration
      const error = yield* Effect.flip(narration.synthesize(narrating(org.actor("viewer")), request("Wait [hang] forever")))
      expect(error).toMatchObject({ code: "NARRATION_PROVIDER_FAILED", charactersCounted: 0 })
      expect(yield* usedThisMonth(org.organizationId)).toBe(0)
      expect((yield* requestRecords(org.organizationId)).map((r) => r.outcome)).toEqual(["PROVIDER_FAILED"])
    }))

  it.effect("a caller who goes away while speech is made gets nothing counted: the reservation is given back at once", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 0)
      const narration = yield* Narration
      const fiber = yield* Effect.fork(narration.synthesize(narrating(org.actor("viewer")), request("Going [hang] away")))
      // The reservation is made before speech starts.
      yield* Effect.sleep(Duration.millis(150))
      expect(yield* usedThisMonth(org.organizationId)).toBe(17)
      expect(Exit.isInterrupted(yield* Fiber.interrupt(fiber))).toBe(true)
      expect(yield* usedThisMonth(org.organizationId)).toBe(0)
      expect((yield* requestRecords(org.organizationId)).map((r) => r.outcome)).toEqual(["CANCELLED"])
    }))

  it.effect("the reaper gives back reservations whose request died, once, and leaves live ones alone", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      const sql = yield* SqlClient.SqlClient
      yield* startMonthAt(org.organizationId, 1_000 + 300 + 40)
      const month = narrationMonth(Date.now()).firstDay
      const reservation = (id: string, characters: number, age: string) =>
        sql`INSERT INTO narration_requests (org_id, id, token_id, user_id, month, characters, voice_id, provider, outcome, requested_at)
            VALUES (${org.organizationId}, ${id}, ${org.actor("viewer").tokenId}, ${org.userId("viewer")}, ${month}::date, ${characters},
                    ${narrationVoiceIds[0]}, 'scripted', 'RESERVED', now() - ${age}::interval)`
      // Two died ten minutes ago (their process crashed); one is a live request of 2 seconds.
      yield* reservation("nar_dead1", 300, "10 minutes")
      yield* reservation("nar_dead2", 40, "6 minutes")
      yield* reservation("nar_alive", 1_000, "2 seconds")
      const reaped = yield* reapDeadReservations(Duration.minutes(5))
      expect(reaped).toEqual({ reaped: 2, characters: 340 })
      expect(yield* usedThisMonth(org.organizationId)).toBe(1_000)
      expect(yield* reapDeadReservations(Duration.minutes(5))).toEqual({ reaped: 0, characters: 0 })
      expect(yield* usedThisMonth(org.organizationId)).toBe(1_000)
      const outcomes = Object.fromEntries((yield* requestRecords(org.organizationId)).map((r) => [r.id, r.outcome]))
      expect(outcomes).toEqual({ nar_dead1: "EXPIRED", nar_dead2: "EXPIRED", nar_alive: "RESERVED" })
    }))

  it.effect("a request past the allowance is 429 NARRATION_QUOTA_EXCEEDED until the next UTC month, speaks nothing, reserves nothing; one that fits exactly is spoken", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - 10)
      const narration = yield* Narration
      const spokenBefore = speech.calls.length
      const before = Date.now()
      const error = yield* Effect.flip(narration.synthesize(narrating(org.actor("viewer")), request("eleven char")))
      expect(error).toMatchObject({ _tag: "TooManyRequests", code: "NARRATION_QUOTA_EXCEEDED", limit: narrationMonthlyAllowance })
      const expected = Math.ceil((narrationMonth(before).resetsAt - before) / 1000)
      expect(Math.abs(("retryAfterSeconds" in error ? error.retryAfterSeconds : 0) - expected)).toBeLessThanOrEqual(2)
      expect(speech.calls.length).toBe(spokenBefore)
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance - 10)
      yield* narration.synthesize(narrating(org.actor("viewer")), request("ten chars!"))
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance)
      expect((yield* requestRecords(org.organizationId)).map((r) => r.outcome)).toEqual(["QUOTA_EXCEEDED", "COMPLETED"])
    }))

  it.effect("the allowance is the organization's, shared by its people; another organization's is its own", () =>
    Effect.gen(function*() {
      const { narrators: org, quiet } = yield* setup
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - 5)
      yield* startMonthAt(quiet.organizationId, 0)
      const narration = yield* Narration
      yield* narration.synthesize(narrating(org.actor("reader01")), request("five!"))
      const error = yield* Effect.flip(narration.synthesize(narrating(org.actor("reader02")), request("a")))
      expect(error).toMatchObject({ code: "NARRATION_QUOTA_EXCEEDED" })
      const { answer } = yield* narration.synthesize(narrating(quiet.actor("quinn")), request("Still room here"))
      expect(answer.characters).toBe(15)
      expect(yield* usedThisMonth(quiet.organizationId)).toBe(15)
    }))

  it.effect("50 requests of 10 people at once at the edge never spend past the allowance, and every refusal is NARRATION_QUOTA_EXCEEDED", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - 100)
      const narration = yield* Narration
      const text = "ten chars!"
      const outcomes = yield* Effect.forEach(
        Array.from({ length: 50 }, (_, i) => readerKeys[i % 10]!),
        (key) => Effect.either(narration.synthesize(narrating(org.actor(key)), request(text))),
        { concurrency: "unbounded" }
      )
      const spoken = outcomes.filter((o) => o._tag === "Right").length
      const refused = outcomes.flatMap((o) => (o._tag === "Left" ? [o.left] : []))
      expect(spoken).toBe(10)
      expect(refused.every((e) => e._tag === "TooManyRequests" && e.code === "NARRATION_QUOTA_EXCEEDED")).toBe(true)
      expect(yield* usedThisMonth(org.organizationId)).toBe(narrationMonthlyAllowance)
    }))

  it.effect("more than 20 narrations in 10 seconds from one token is 429 without a code, and another token is not held back", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 0)
      // Start early in a 10-second window, so the burst cannot straddle two.
      yield* Effect.sleep(Duration.millis(Math.max(0, 10_000 - (Date.now() % 10_000) < 4_000 ? 10_000 - (Date.now() % 10_000) + 100 : 0)))
      const narration = yield* Narration
      const burster = narrating(org.actor("reader15"))
      for (let i = 0; i < 20; i++) yield* narration.synthesize(burster, request(`Line ${i}`))
      const error = yield* Effect.flip(narration.synthesize(burster, request("One more")))
      expect(error._tag).toBe("NarrationTooQuick")
      expect(error).not.toHaveProperty("code")
      expect("retryAfterSeconds" in error && error.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      // Refused before reserving: only the 20 spoken count.
      expect(yield* usedThisMonth(org.organizationId)).toBe(10 * "Line 0".length + 10 * "Line 10".length)
      yield* narration.synthesize(narrating(org.actor("reader16")), request("Not held back"))
      expect(yield* usedThisMonth(org.organizationId)).toBe(10 * "Line 0".length + 10 * "Line 10".length + "Not held back".length)
    }))

  it.effect("the month's usage: used (in-flight reservations included), reserved, remaining, when it renews, requests by outcome", () =>
    Effect.gen(function*() {
      const { narrators: org } = yield* setup
      yield* startMonthAt(org.organizationId, 1_000)
      const narration = yield* Narration
      const viewer = narrating(org.actor("reader05"))
      yield* narration.synthesize(viewer, request("twelve chars"))
      yield* Effect.either(narration.synthesize(viewer, request("a [fail]")))
      yield* Effect.either(narration.synthesize(viewer, request("b [unreadable]")))
      const running = yield* Effect.fork(narration.synthesize(viewer, request("c [hang] long")))
      yield* Effect.sleep(Duration.millis(100))
      const usage = yield* narration.usage(allowed(org.actor("admin"), policies.narration.usage))
      const now = Date.now()
      expect(usage).toEqual({
        month: narrationMonth(now).key,
        limit: narrationMonthlyAllowance,
        used: 1_000 + 12 + 14 + 13,
        reserved: 13,
        remaining: narrationMonthlyAllowance - (1_000 + 12 + 14 + 13),
        resetsAt: new Date(narrationMonth(now).resetsAt).toISOString(),
        requests: { completed: 1, providerFailed: 1, timingsUnreadable: 1, quotaExceeded: 0, released: 0 }
      })
      yield* Fiber.interrupt(running)
      const after = yield* narration.usage(allowed(org.actor("admin"), policies.narration.usage))
      expect(after).toMatchObject({ used: 1_026, reserved: 0, requests: { released: 1 } })
    }))
})
