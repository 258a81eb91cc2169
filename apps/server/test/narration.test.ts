import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { readMp3Frames } from "@tks/adapters/speech/mp3-frames"
import { narrationMonth, narrationMonthlyAllowance, narrationVoiceIds, wordRuns } from "@tks/domain/narration"
import { medianPitch, narrationAudioProblems } from "../../../packages/adapters/test/support/mp3.js"
import { narratorsOnce, startMonthAt, synthesize, usedThisMonth } from "./support/narrators.js"
import { expectError } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * POST /v1/narration/synthesize and GET /v1/narration/usage (docs/domain.md,
 * Narration) on the real server with the local speech engine (eSpeak-NG and LAME in
 * worker threads): the audio is decoded, the words checked against the text.
 * Provider failures: narration-provider.test.ts; two instances at the
 * allowance's edge: narration-two-instances.test.ts.
 */
const setup = narratorsOnce

/** The MP3 of an answer: its problems as narration audio (none expected), and its length from its frames. */
const audioOf = (base64: string) =>
  Effect.promise(async () => {
    const bytes = new Uint8Array(Buffer.from(base64, "base64"))
    const frames = readMp3Frames(bytes)
    const durationSeconds = Either.isRight(frames) ? frames.right.durationSeconds : 0
    return { bytes, durationSeconds, problems: await narrationAudioProblems(bytes, durationSeconds) }
  })

/** The narration word list: one entry per whitespace-delimited run, in order, times monotonic and within the audio. */
const expectWordsOf = (text: string, words: ReadonlyArray<{ word: string; start: number; end: number }>, durationSeconds: number) => {
  expect(words.map((w) => w.word)).toEqual(wordRuns(text.trim()).map((run) => run.word))
  let previous = 0
  for (const word of words) {
    expect(word.start).toBeGreaterThanOrEqual(previous)
    expect(word.end).toBeGreaterThanOrEqual(word.start)
    previous = word.start
  }
  expect(words.at(-1)!.end).toBeLessThanOrEqual(durationSeconds)
  expect(words.at(-1)!.end).toBeGreaterThan(0)
}

layer(TestServerLive, { excludeTestServices: true })("narration", (it) => {
  describe("POST /v1/narration/synthesize: speech", () => {
    it.effect("a member's text comes back as MP3 (MPEG-1 Layer III, 44.1 kHz, 128 kbps) with a word per whitespace run of the text as sent, digits and punctuation kept", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const text = "  Check the 3 exits, then call ext. 4521 — twice!\n"
        const response = yield* synthesize(token("viewer"), { text })
        expect(response.status, response.text.slice(0, 300)).toBe(200)
        expect(response.json.audio.format).toBe("mp3_44100_128")
        expect(response.json.audio.mimeType).toBe("audio/mpeg")
        expect(response.json.characters).toBe(text.trim().length)
        expect(response.json.words.map((w: { word: string }) => w.word)).toEqual(["Check", "the", "3", "exits,", "then", "call", "ext.", "4521", "—", "twice!"])
        const audio = yield* audioOf(response.json.audio.base64)
        expect(audio.problems).toEqual([])
        expectWordsOf(text, response.json.words, audio.durationSeconds)
      }))

    it.effect("1000 characters (after trimming) are spoken whole; the last word ends within the audio", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        const sentence = "Every forklift is checked before the shift, and 2 people sign the log. "
        const text = `   ${sentence.repeat(20).slice(0, 990).trimEnd().padEnd(1000, "!")}   `
        const response = yield* synthesize(token("viewer"), { text })
        expect(response.status).toBe(200)
        expect(response.json.characters).toBe(1000)
        const audio = yield* audioOf(response.json.audio.base64)
        expect(audio.problems).toEqual([])
        expect(audio.durationSeconds).toBeGreaterThan(30)
        expectWordsOf(text, response.json.words, audio.durationSeconds)
      }))

    it.effect("each of the six catalog voices speaks in its own voice (the female ones at a higher pitch); none named is the first", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const sql = yield* SqlClient.SqlClient
        const text = "Welcome to the team, and please read the safety notes today."
        const lastVoice = Effect.map(
          sql<{ voice_id: string }>`SELECT voice_id FROM narration_requests WHERE org_id = ${result.organizationId} ORDER BY requested_at DESC LIMIT 1`,
          (rows) => rows[0]?.voice_id
        )
        const pitches: Array<number> = []
        for (const voiceId of narrationVoiceIds) {
          const response = yield* synthesize(token("admin"), { text, voiceId })
          expect(response.status, voiceId).toBe(200)
          const audio = yield* audioOf(response.json.audio.base64)
          expect(audio.problems, voiceId).toEqual([])
          expect(yield* lastVoice).toBe(voiceId)
          pitches.push(yield* Effect.promise(() => medianPitch(audio.bytes)))
        }
        // The catalog alternates lower and higher voices: 2, 4 and 6 are the higher.
        for (const i of [1, 3, 5]) expect(pitches[i]!, `voice ${i + 1}`).toBeGreaterThan(1.5 * Math.max(pitches[0]!, pitches[2]!, pitches[4]!))
        expect((yield* synthesize(token("admin"), { text })).status).toBe(200)
        expect(yield* lastVoice).toBe(narrationVoiceIds[0])
      }))
  })

  describe("bad input (400 with the JSON body; nothing counted)", () => {
    it.effect("text missing, not a string, empty or blank after trimming, or over 1000 characters; a voiceId outside the catalog", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const before = yield* usedThisMonth(result.organizationId)
        const cases: ReadonlyArray<readonly [unknown, string, string]> = [
          [{}, "text", "missing"],
          [{ text: 42 }, "text", "a number"],
          [{ text: "" }, "text", "empty"],
          [{ text: " \n\t " }, "text", "blank"],
          [{ text: "a".repeat(1001) }, "text", "1001 characters"],
          [{ text: ` ${"b".repeat(1000)}x ` }, "text", "1001 after trimming"],
          [{ text: "Hello", voiceId: "21m00Tcm4TlvDq8ikWAM" }, "voiceId", "a voice not in the catalog"],
          [{ text: "Hello", voiceId: null }, "voiceId", "null voice"]
        ]
        for (const [body, path, label] of cases) {
          const response = yield* synthesize(token("viewer"), body)
          expectError(response, 400, "VALIDATION_ERROR", label)
          expect(response.json.issues.map((issue: { path: string }) => issue.path), label).toContain(path)
        }
        const catalog = yield* synthesize(token("viewer"), { text: "Hello", voiceId: "nope" })
        for (const voiceId of narrationVoiceIds) expect(catalog.json.issues[0].message).toContain(voiceId)
        const malformed = yield* raw("POST", "/v1/narration/synthesize", { token: token("viewer"), body: "{\"text\": " })
        expectError(malformed, 400, "MALFORMED_JSON", "malformed JSON")
        expect(yield* usedThisMonth(result.organizationId)).toBe(before)
      }))
  })

  describe("who may narrate (the narration:synthesize scope and one of three permissions, on every call)", () => {
    it.effect("no, an unknown, an expired or a revoked token is 401", () =>
      Effect.gen(function*() {
        const { badTokens } = yield* setup
        for (const [kind, token] of Object.entries(badTokens)) {
          expectError(yield* synthesize(token, { text: "Hello" }), 401, "UNAUTHORIZED", kind)
        }
      }))

    it.effect("an external account holding the scope is 403, a member whose token lacks the scope is 403, and nothing is counted", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        const before = yield* usedThisMonth(result.organizationId)
        const external = yield* synthesize(token("external"), { text: "Hello" })
        expectError(external, 403, "FORBIDDEN", "external")
        expect(external.json.message).toMatch(/guide\.create, video\.create or content-review\.create/)
        const unscoped = yield* synthesize(token("unscoped"), { text: "Hello" })
        expectError(unscoped, 403, "FORBIDDEN", "unscoped")
        expect(unscoped.json.message).toMatch(/narration:synthesize/)
        expect(yield* usedThisMonth(result.organizationId)).toBe(before)
      }))

    it.effect("an admin and a viewer narrate; another organization's admin narrates against their own allowance", () =>
      Effect.gen(function*() {
        const { result, quiet, token } = yield* setup
        const before = yield* usedThisMonth(result.organizationId)
        for (const key of ["admin", "viewer"]) expect((yield* synthesize(token(key), { text: "Good morning" })).status, key).toBe(200)
        expect(yield* usedThisMonth(result.organizationId)).toBe(before + 2 * "Good morning".length)
        const quietBefore = yield* usedThisMonth(quiet.organizationId)
        expect((yield* synthesize(token("quinn"), { text: "Good morning" })).status).toBe(200)
        expect(yield* usedThisMonth(quiet.organizationId)).toBe(quietBefore + 12)
        expect(yield* usedThisMonth(result.organizationId)).toBe(before + 24)
      }))
  })

  describe("limits", () => {
    it.effect("past the month's 100,000 characters: 429 NARRATION_QUOTA_EXCEEDED, Retry-After the seconds until the next UTC month, nothing counted", () =>
      Effect.gen(function*() {
        const { result, token } = yield* setup
        yield* startMonthAt(result.organizationId, narrationMonthlyAllowance - 5)
        const now = Date.now()
        const response = yield* synthesize(token("viewer"), { text: "Six ch" })
        expectError(response, 429, "NARRATION_QUOTA_EXCEEDED")
        const expected = Math.ceil((narrationMonth(now).resetsAt - now) / 1000)
        expect(Math.abs(Number(response.headers.get("retry-after")) - expected)).toBeLessThanOrEqual(2)
        expect(response.json.retryAfterSeconds).toBe(Number(response.headers.get("retry-after")))
        expect(yield* usedThisMonth(result.organizationId)).toBe(narrationMonthlyAllowance - 5)
        // What still fits is spoken, to the last character.
        expect((yield* synthesize(token("viewer"), { text: "Five!" })).status).toBe(200)
        expect(yield* usedThisMonth(result.organizationId)).toBe(narrationMonthlyAllowance)
        yield* startMonthAt(result.organizationId, 0)
      }))

    it.effect("more than 20 requests in 10 seconds from one token: 429 without a code, with Retry-After; another token goes on", () =>
      Effect.gen(function*() {
        const { token } = yield* setup
        // Start early in a 10-second window, so the burst cannot straddle two.
        const left = 10_000 - (Date.now() % 10_000)
        if (left < 5_000) yield* Effect.sleep(left + 100)
        const answers = yield* Effect.forEach(
          Array.from({ length: 24 }, (_, i) => i),
          (i) => synthesize(token("reader01"), { text: `Item ${i}.` }),
          { concurrency: 4 }
        )
        const limited = answers.filter((answer) => answer.status === 429)
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20)
        expect(limited).toHaveLength(4)
        for (const answer of limited) {
          expect(answer.json).not.toHaveProperty("code")
          expect(answer.json._tag).toBe("NarrationTooQuick")
          expect(answer.json.message).toEqual(expect.any(String))
          expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        }
        expect((yield* synthesize(token("reader02"), { text: "Still here." })).status).toBe(200)
      }))
  })

  describe("GET /v1/narration/usage", () => {
  it.effect("an organization admin reads this month's use: used, reserved, remaining, when it renews, requests by outcome", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      yield* startMonthAt(result.organizationId, 1_000)
      expect((yield* synthesize(token("viewer"), { text: "Hello there" })).status).toBe(200)
      const response = yield* raw("GET", "/v1/narration/usage", { token: token("admin") })
      expect(response.status).toBe(200)
      const now = Date.now()
      expect(response.json).toEqual({
        month: narrationMonth(now).key,
        limit: 100_000,
        used: 1_011,
        reserved: 0,
        remaining: 98_989,
        resetsAt: new Date(narrationMonth(now).resetsAt).toISOString(),
        requests: { completed: 1, providerFailed: 0, timingsUnreadable: 0, quotaExceeded: 0, released: 0 }
      })
    }))

  it.effect("a viewer and an external account are 403; bad tokens 401; another organization's admin reads only their own", () =>
    Effect.gen(function*() {
      const { token, badTokens } = yield* setup
      for (const key of ["viewer", "external"]) expectError(yield* raw("GET", "/v1/narration/usage", { token: token(key) }), 403, "FORBIDDEN", key)
      for (const [kind, bad] of Object.entries(badTokens)) expectError(yield* raw("GET", "/v1/narration/usage", { token: bad }), 401, "UNAUTHORIZED", kind)
      const { quiet: other } = yield* setup
      const quietUsed = yield* usedThisMonth(other.organizationId)
      const quiet = yield* raw("GET", "/v1/narration/usage", { token: token("quinn") })
      expect(quiet.status).toBe(200)
      expect(quiet.json).toMatchObject({ used: quietUsed, remaining: 100_000 - quietUsed, requests: { completed: 1 } })
    }))
  })
})
