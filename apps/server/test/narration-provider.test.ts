import type { IncomingMessage } from "node:http"
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"
import { elevenLabsLayer } from "@tks/adapters/speech/elevenlabs"
import { wordRuns } from "@tks/domain/narration"
import { loopbackServer } from "../../../packages/adapters/test/support/loopback-server.js"
import { encodeMp3, tone } from "../../../packages/adapters/test/support/mp3.js"
import { narratorsOnce, startMonthAt, synthesize, usedThisMonth } from "./support/narrators.js"
import { expectError } from "./support/responses.js"
import { raw, testServerWith } from "./support/server.js"
import { TestPageFetcherLive, TestVideoCatalogLive } from "./support/adapters.js"

/**
 * The server with its production speech adapter (ElevenLabs) against a
 * loopback fake of the with-timestamps endpoint, which answers by the text
 * it is sent: `[down]` 500 every time, `[garbage]` a body that is not JSON,
 * `[unaligned]` real audio with an alignment of the wrong length, anything
 * else real audio aligned to the text. Nothing usable gives the
 * characters back; audio without readable timings keeps them, and both
 * answer 503 NARRATION_PROVIDER_FAILED saying which.
 */
const readJson = (request: IncomingMessage) =>
  new Promise<{ text: string }>((resolve) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    request.on("end", () => resolve(JSON.parse(body)))
  })

const audioFor = (text: string) => encodeMp3(tone(0.1 * text.length))

const FakeElevenLabs = Layer.unwrapScoped(
  Effect.gen(function*() {
    const fake = yield* loopbackServer(
      Object.fromEntries(
        ["nPczCjzI2devNBz1zQrb"].map((voice) => [
          `/v1/text-to-speech/${voice}/with-timestamps`,
          (request, response) => {
            void readJson(request).then(async ({ text }) => {
              if (text.includes("[down]")) return response.writeHead(500).end("{}")
              if (text.includes("[garbage]")) return response.writeHead(200, { "content-type": "application/json" }).end("<html>")
              const mp3 = await audioFor(text)
              const characters = Array.from(text)
              const alignment = {
                characters: text.includes("[unaligned]") ? characters.slice(1) : characters,
                character_start_times_seconds: characters.map((_, i) => 0.1 * i),
                character_end_times_seconds: characters.map((_, i) => 0.1 * i + 0.1)
              }
              response.writeHead(200, { "content-type": "application/json" })
                .end(JSON.stringify({ audio_base64: Buffer.from(mp3).toString("base64"), alignment, normalized_alignment: alignment }))
            })
          }
        ])
      )
    )
    return elevenLabsLayer({
      baseUrl: new URL(`http://127.0.0.1:${fake.port}`),
      apiKey: Redacted.make("test-key"),
      modelId: "eleven_multilingual_v2",
      timeout: Duration.seconds(5),
      retryDelay: Duration.millis(10)
    })
  })
)

const TestServer = testServerWith(Layer.mergeAll(TestPageFetcherLive, TestVideoCatalogLive, FakeElevenLabs))

layer(TestServer, { excludeTestServices: true })("narration through the speech provider", (it) => {
  describe("POST /v1/narration/synthesize", () => {
    it.effect("the provider's audio and character alignment become the answer's words", () =>
      Effect.gen(function*() {
        const { result, token } = yield* narratorsOnce
        yield* startMonthAt(result.organizationId, 0)
        const text = "Lock the gate at 6."
        const response = yield* synthesize(token("viewer"), { text })
        expect(response.status, response.text.slice(0, 300)).toBe(200)
        expect(response.json.words.map((w: { word: string }) => w.word)).toEqual(wordRuns(text).map((r) => r.word))
        expect(response.json.words[0]).toEqual({ word: "Lock", start: 0, end: expect.closeTo(0.4, 5) })
        expect(yield* usedThisMonth(result.organizationId)).toBe(text.length)
      }))

    it.effect("a provider that produces nothing (an error, or no audio): 503 NARRATION_PROVIDER_FAILED, and the characters are given back", () =>
      Effect.gen(function*() {
        const { result, token } = yield* narratorsOnce
        yield* startMonthAt(result.organizationId, 700)
        for (const text of ["The service is [down]", "A [garbage] answer"]) {
          const response = yield* synthesize(token("viewer"), { text })
          expectError(response, 503, "NARRATION_PROVIDER_FAILED", text)
          expect(response.json.message).toMatch(/nothing was counted/)
          expect(response.json.charactersCounted).toBe(0)
        }
        expect(yield* usedThisMonth(result.organizationId)).toBe(700)
        const usage = yield* raw("GET", "/v1/narration/usage", { token: token("admin") })
        expect(usage.json).toMatchObject({ used: 700, requests: { providerFailed: 2 } })
      }))

    it.effect("audio whose word timings cannot be read: 503 NARRATION_PROVIDER_FAILED saying the characters stay counted, and they do", () =>
      Effect.gen(function*() {
        const { result, token } = yield* narratorsOnce
        yield* startMonthAt(result.organizationId, 700)
        const text = "Misaligned [unaligned] words"
        const response = yield* synthesize(token("viewer"), { text })
        expectError(response, 503, "NARRATION_PROVIDER_FAILED")
        expect(response.json.message).toMatch(new RegExp(`the ${text.length} characters stay counted`))
        expect(response.json.charactersCounted).toBe(text.length)
        expect(yield* usedThisMonth(result.organizationId)).toBe(700 + text.length)
        const usage = yield* raw("GET", "/v1/narration/usage", { token: token("admin") })
        expect(usage.json).toMatchObject({ requests: { timingsUnreadable: 1 } })
      }))
  })
})
