import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Layer, Logger, Redacted, Tracer } from "effect"
import { type VoiceId, wordTimingsProblem } from "@tks/domain/narration"
import { elevenLabsLayer, type ElevenLabsSettings } from "@tks/adapters/speech/elevenlabs"
import { SpeechSynthesizerLive } from "@tks/adapters/speech/live"
import { SpeechFailed, SpeechSynthesizer, SpeechTimingsUnreadable } from "@tks/adapters/speech/port"
import { encodeMp3, narrationAudioProblems, tone } from "./support/mp3.js"
import { json, type RecordedRequest, type ScriptedReply, scriptedServer } from "./support/scripted-server.js"

const key = "sk_test_8f3c1d2e9b"
const voiceId: VoiceId = "onwK4e9ZLuTAKqWW03F9"
const sample = "Hello, world! It's 42 & <ok> 😀 done."

// Two seconds of real MP3 (MPEG-1 Layer III, 44.1 kHz, 128 kbps), as mp3_44100_128 is.
const audio = await encodeMp3(tone(2))
const lowBitrate = await encodeMp3(tone(2), { bitrate: 64 })
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** Each character (code point, as the service counts) 50 ms long. */
const alignmentOf = (text: string) => {
  const characters = Array.from(text)
  return {
    characters,
    character_start_times_seconds: characters.map((_, i) => Math.round(i * 50) / 1000),
    character_end_times_seconds: characters.map((_, i) => Math.round((i + 1) * 50) / 1000)
  }
}

const textOf = (request: RecordedRequest): string => JSON.parse(request.body).text

/** The service's answer for the text it was sent. */
const spoken = (request: RecordedRequest, change: (answer: Record<string, unknown>) => Record<string, unknown> = (a) => a) =>
  json(200, change({
    audio_base64: base64(audio),
    alignment: alignmentOf(textOf(request)),
    normalized_alignment: alignmentOf(textOf(request))
  }))

const settingsFor = (baseUrl: string, overrides: Partial<ElevenLabsSettings> = {}): ElevenLabsSettings => ({
  baseUrl: new URL(baseUrl),
  apiKey: Redacted.make(key),
  modelId: "eleven_multilingual_v2",
  timeout: Duration.seconds(5),
  retryDelay: Duration.millis(10),
  ...overrides
})

const synthesizeAgainst = (
  script: (request: RecordedRequest) => ScriptedReply,
  overrides: Partial<ElevenLabsSettings> = {},
  text = sample
) =>
  Effect.gen(function*() {
    const server = yield* scriptedServer(script)
    const exit = yield* SpeechSynthesizer.pipe(
      Effect.flatMap((speech) => speech.synthesize({ text, voiceId })),
      Effect.provide(elevenLabsLayer(settingsFor(server.baseUrl, overrides))),
      Effect.exit
    )
    return { exit, requests: server.requests }
  })

/** The failure, or what happened instead (kept small: a diff of a whole Exit with its MP3 is unreadable). */
const failureOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : Exit.isSuccess(exit) ? "succeeded" : String(exit.cause)

// scopedLive: time limits and backoff run on the real clock.
describe("the ElevenLabs speech adapter (with-timestamps, against a loopback fake)", () => {
  it.scopedLive("the service's MP3 and character alignment give the audio, its length and a timing per run", () =>
    Effect.gen(function*() {
      const { exit } = yield* synthesizeAgainst((request) => spoken(request))
      expect(Exit.isSuccess(exit)).toBe(true)
      if (!Exit.isSuccess(exit)) return
      const speech = exit.value
      expect(Buffer.from(speech.mp3).equals(Buffer.from(audio))).toBe(true)
      expect(yield* Effect.promise(() => narrationAudioProblems(speech.mp3, speech.durationSeconds))).toEqual([])
      expect(wordTimingsProblem(sample, speech.words, speech.durationSeconds)).toBeUndefined()
      expect(speech.words.slice(0, 3)).toEqual([
        { word: "Hello,", start: 0, end: 0.3 },
        { word: "world!", start: 0.35, end: 0.65 },
        { word: "It's", start: 0.7, end: 0.9 }
      ])
      expect(speech.words.find((w) => w.word === "😀")).toEqual({ word: "😀", start: 1.45, end: 1.5 })
    }))

  it.scopedLive("the request is POST /v1/text-to-speech/{voiceId}/with-timestamps?output_format=mp3_44100_128 with the key header, the text and the model", () =>
    Effect.gen(function*() {
      const { requests } = yield* synthesizeAgainst((request) => spoken(request))
      expect(requests).toHaveLength(1)
      const request = requests[0]!
      expect(request.method).toBe("POST")
      const url = new URL(request.url, "http://fake")
      expect(url.pathname).toBe(`/v1/text-to-speech/${voiceId}/with-timestamps`)
      expect(url.searchParams.get("output_format")).toBe("mp3_44100_128")
      expect(request.headers["xi-api-key"]).toBe(key)
      expect(request.headers["content-type"]).toMatch(/^application\/json/)
      expect(JSON.parse(request.body)).toEqual({ text: sample, model_id: "eleven_multilingual_v2" })
    }))

  it.scopedLive("a 500 then a 200 is retried and succeeds", () =>
    Effect.gen(function*() {
      let calls = 0
      const { exit, requests } = yield* synthesizeAgainst((request) => ++calls === 1 ? { status: 500, body: "oops" } : spoken(request))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(requests).toHaveLength(2)
    }))

  it.scopedLive("429 and 503 every time: two retries, then SpeechFailed", () =>
    Effect.gen(function*() {
      for (const status of [429, 503]) {
        const { exit, requests } = yield* synthesizeAgainst(() => json(status, { detail: "busy" }))
        expect(failureOf(exit), String(status)).toEqual(new SpeechFailed({ reason: `HTTP ${status}` }))
        expect(requests, String(status)).toHaveLength(3)
      }
    }))

  it.scopedLive("401 (a bad key), 400 and 422 are SpeechFailed at once, without a retry", () =>
    Effect.gen(function*() {
      for (const status of [401, 400, 422]) {
        const { exit, requests } = yield* synthesizeAgainst(() => json(status, { detail: { status: "invalid_api_key" } }))
        expect(failureOf(exit), String(status)).toEqual(new SpeechFailed({ reason: `HTTP ${status}` }))
        expect(requests, String(status)).toHaveLength(1)
      }
    }))

  it.scopedLive("a service that does not answer within the time limit is retried, then SpeechFailed", () =>
    Effect.gen(function*() {
      const { exit, requests } = yield* synthesizeAgainst((request) => ({ ...spoken(request), delayMs: 2_000 }), {
        timeout: Duration.millis(150)
      })
      expect(failureOf(exit)).toEqual(new SpeechFailed({ reason: "no answer within 150ms" }))
      expect(requests).toHaveLength(3)
    }))

  it.scopedLive("a service that cannot be reached is SpeechFailed", () =>
    Effect.gen(function*() {
      const closedBase = yield* Effect.scoped(scriptedServer(() => json(200, {})).pipe(Effect.map((server) => server.baseUrl)))
      const exit = yield* SpeechSynthesizer.pipe(
        Effect.flatMap((speech) => speech.synthesize({ text: sample, voiceId })),
        Effect.provide(elevenLabsLayer(settingsFor(closedBase))),
        Effect.exit
      )
      const failure = failureOf(exit)
      expect(failure).toBeInstanceOf(SpeechFailed)
      expect((failure as SpeechFailed).reason).toMatch(/^request failed: /)
    }))

  it.scopedLive("an answer that is not JSON, or has no audio, or audio that is not base64 MP3 at 128 kbps, is SpeechFailed", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<[string, (request: RecordedRequest) => ScriptedReply]> = [
        ["the answer is not JSON", () => ({ status: 200, body: "{\"audio_base64\": ", headers: { "content-type": "application/json" } })],
        ["the answer is not a with-timestamps answer", () => json(200, ["not", "an", "object"])],
        ["the answer is not a with-timestamps answer", (request) => spoken(request, (a) => ({ ...a, audio_base64: 42 }))],
        ["the answer has no audio", (request) => spoken(request, ({ audio_base64: _, ...rest }) => rest)],
        ["the answer has no audio", (request) => spoken(request, (a) => ({ ...a, audio_base64: "" }))],
        ["the answer has no audio", (request) => spoken(request, (a) => ({ ...a, audio_base64: null }))],
        ["the answer's audio is not base64", (request) => spoken(request, (a) => ({ ...a, audio_base64: "ID3 not base64!" }))],
        [
          "the answer's audio is unusable: the audio is not a run of MPEG frames: no frame header at byte 0",
          (request) => spoken(request, (a) => ({ ...a, audio_base64: base64(new TextEncoder().encode("RIFF....WAVEfmt ")) }))
        ],
        [
          "the answer's audio is unusable: frame 1 is MPEG-1 Layer III at 44100 Hz, 64 kbps; expected MPEG-1 Layer III at 44100 Hz, 128 kbps",
          (request) => spoken(request, (a) => ({ ...a, audio_base64: base64(lowBitrate) }))
        ]
      ]
      for (const [reason, script] of cases) {
        const { exit, requests } = yield* synthesizeAgainst(script)
        expect(failureOf(exit), reason).toEqual(new SpeechFailed({ reason }))
        expect(requests, reason).toHaveLength(1)
      }
    }))

  it.scopedLive("good audio with an absent or malformed alignment is SpeechTimingsUnreadable (each kind)", () =>
    Effect.gen(function*() {
      const aligned = alignmentOf(sample)
      const n = aligned.characters.length
      const times = (change: (starts: Array<number>, ends: Array<number>) => void) => {
        const starts = [...aligned.character_start_times_seconds]
        const ends = [...aligned.character_end_times_seconds]
        change(starts, ends)
        return { ...aligned, character_start_times_seconds: starts, character_end_times_seconds: ends }
      }
      const cases: ReadonlyArray<[string, unknown]> = [
        ["the answer's character alignment is missing or malformed", undefined],
        ["the answer's character alignment is missing or malformed", null],
        ["the answer's character alignment is missing or malformed", { characters: aligned.characters }],
        ["the answer's character alignment is missing or malformed", times((starts) => {
          ;(starts as Array<unknown>)[3] = "0.15"
        })],
        [`the alignment's arrays differ in length (${n} characters, ${n - 1} starts, ${n} ends)`, times((starts) => starts.pop())],
        ["the alignment's characters are not the text sent", alignmentOf("Hello, world! It is forty two and ok done.")],
        ["character 1 of the alignment has no usable time", times((starts) => {
          starts[0] = -0.2
        })],
        ["character 5 of the alignment ends before it starts", times((_, ends) => {
          ends[4] = 0.1
        })],
        ["character 6 of the alignment starts before the one before it", times((starts) => {
          starts[5] = 0.01
        })],
        [`character ${n} of the alignment ends at 3.5 s, after the audio (2.038 s)`, times((_, ends) => {
          ends[n - 1] = 3.5
        })]
      ]
      for (const [reason, alignment] of cases) {
        const { exit } = yield* synthesizeAgainst((request) =>
          spoken(request, ({ alignment: _, ...rest }) => alignment === undefined ? rest : { ...rest, alignment })
        )
        expect(failureOf(exit), reason).toEqual(new SpeechTimingsUnreadable({ reason }))
      }
    }))

  it.scopedLive("neither the text nor the key reaches a log line or a trace span, on success or failure", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const spans: Array<Tracer.Span> = []
      const base = yield* Effect.tracer
      const recording = Tracer.make({
        span: (...args) => {
          const span = base.span(...args)
          spans.push(span)
          return span
        },
        context: base.context
      })
      const capture = Logger.replace(Logger.defaultLogger, Logger.make((options) => lines.push(Logger.logfmtLogger.log(options))))
      let calls = 0
      const secret = "Confidential: the Q3 numbers"
      const replies = (request: RecordedRequest) => {
        calls++
        if (calls === 1) return { status: 500, body: "" }
        if (calls === 2) return spoken(request)
        return spoken(request, (a) => ({ ...a, alignment: null }))
      }
      const server = yield* scriptedServer(replies)
      yield* SpeechSynthesizer.pipe(
        Effect.flatMap((speech) =>
          Effect.all([speech.synthesize({ text: secret, voiceId }), Effect.exit(speech.synthesize({ text: secret, voiceId }))])
        ),
        Effect.provide(Layer.merge(elevenLabsLayer(settingsFor(server.baseUrl)), capture)),
        Effect.withTracer(recording)
      )
      expect(lines.some((line) => line.includes("word timings unreadable"))).toBe(true)
      const attributes = spans.flatMap((span) => Array.from(span.attributes.entries(), ([name, value]) => `${name}=${String(value)}`))
      expect(attributes).toContain("http.request.header.xi-api-key=<redacted>")
      for (const text of [...lines, ...attributes]) {
        expect(text).not.toContain(key)
        expect(text).not.toContain("Confidential")
      }
    }))
})

describe("SpeechSynthesizerLive (ElevenLabs when ELEVENLABS_API_KEY is set, else the local engine)", () => {
  const providerWith = (entries: ReadonlyArray<[string, string]>) =>
    SpeechSynthesizer.pipe(
      Effect.map((speech) => speech.provider),
      Effect.provide(SpeechSynthesizerLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries))))))
    )

  it.scopedLive("without a key, or with a blank one, the local engine answers", () =>
    Effect.gen(function*() {
      expect(yield* providerWith([])).toBe("local")
      expect(yield* providerWith([["ELEVENLABS_API_KEY", "  "]])).toBe("local")
    }))

  it.scopedLive("with a key, ElevenLabs answers at ELEVENLABS_BASE_URL (a base with a path keeps its prefix) with ELEVENLABS_MODEL_ID", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer((request) => spoken(request))
      const speech = yield* SpeechSynthesizer.pipe(
        Effect.tap((speech) => Effect.sync(() => expect(speech.provider).toBe("elevenlabs"))),
        Effect.flatMap((speech) => speech.synthesize({ text: "Hi there.", voiceId })),
        Effect.provide(SpeechSynthesizerLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([
          ["ELEVENLABS_API_KEY", key],
          ["ELEVENLABS_BASE_URL", `${server.baseUrl}/proxy/`],
          ["ELEVENLABS_MODEL_ID", "eleven_flash_v2_5"]
        ]))))))
      )
      expect(speech.words.map((w) => w.word)).toEqual(["Hi", "there."])
      const request = server.requests[0]!
      expect(new URL(request.url, "http://fake").pathname).toBe(`/proxy/v1/text-to-speech/${voiceId}/with-timestamps`)
      expect(JSON.parse(request.body).model_id).toBe("eleven_flash_v2_5")
    }))

  it.effect("a base address that is not http or https is refused at start", () =>
    Effect.gen(function*() {
      const exit = yield* providerWith([["ELEVENLABS_API_KEY", key], ["ELEVENLABS_BASE_URL", "ftp://example.test"]]).pipe(Effect.exit)
      expect(String(exit)).toContain("ELEVENLABS_BASE_URL must be an http or https address")
    }))
})
