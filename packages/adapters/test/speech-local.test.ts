import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import { MPEGDecoder } from "mpg123-decoder"
import { createMp3Encoder } from "wasm-media-encoders"
import { narrationVoiceIds, wordRuns, wordTimingsProblem } from "@tks/domain/narration"
import { engineTextOf } from "@tks/adapters/speech/espeak-timings"
import { encoderDelaySeconds, localSpeechLayer, localVoices } from "@tks/adapters/speech/local"
import { SpeechSynthesizer } from "@tks/adapters/speech/port"
import { makeSpeechEngine } from "@tks/adapters/speech/speech-workers"
import { medianPitch, narrationAudioProblems } from "./support/mp3.js"

const settings = { workers: 2, jobTimeout: Duration.seconds(60), idleTimeout: Duration.minutes(1) }

const sentence = "Hello, world! It's 42 degrees at 3:45pm — the total is 1,234.5 & rising <fast> 😀 ok."

/** 1000 characters of English prose, as long as a narration may be. */
const thousand = (() => {
  const prose = "Before starting the forklift, walk around it and check the tyres, forks, chains and hydraulic hoses. " +
    "Report any leak to your supervisor at once; do not drive a truck that fails the check. " +
    "Keep the load low while moving, look in the direction of travel, and sound the horn at blind corners. " +
    "In 2023 the site recorded 14 near misses, most of them at the loading bay between 6:30am and 8am. "
  const text = prose.repeat(4).slice(0, 1000)
  return `${text.slice(0, 999).trimEnd().padEnd(999, "x")}.`
})()

const synthesize = (text: string, voiceId: (typeof narrationVoiceIds)[number] = narrationVoiceIds[0]) =>
  Effect.flatMap(SpeechSynthesizer, (speech) => speech.synthesize({ text, voiceId }))

/** What the contract promises about one narration: the audio, and the words against the audio. */
const expectNarration = (text: string, speech: { mp3: Uint8Array; durationSeconds: number; words: ReadonlyArray<{ word: string; start: number; end: number }> }) =>
  Effect.gen(function*() {
    expect(yield* Effect.promise(() => narrationAudioProblems(speech.mp3, speech.durationSeconds))).toEqual([])
    expect(wordTimingsProblem(text, speech.words, speech.durationSeconds)).toBeUndefined()
    expect(speech.words.map((w) => w.word)).toEqual(wordRuns(text).map((run) => run.word))
    expect(speech.words.at(-1)!.end).toBeLessThanOrEqual(speech.durationSeconds)
  })

layer(localSpeechLayer(settings), { excludeTestServices: true })("the local speech engine (eSpeak-NG + LAME, WASM, in worker threads)", (it) => {
  it.effect("a sentence with punctuation, digits, an emoji, &, <, > and a dash is real MP3 with a timing per run", () =>
    Effect.gen(function*() {
      const speech = yield* synthesize(sentence)
      yield* expectNarration(sentence, speech)
      const of = (word: string) => speech.words.find((w) => w.word === word)!
      // Spoken runs take time; the speech starts after the encoder's delay.
      for (const word of ["Hello,", "42", "3:45pm", "1,234.5", "&", "😀", "ok."]) {
        expect(of(word).end - of(word).start, word).toBeGreaterThan(0.05)
      }
      expect(of("3:45pm").end - of("3:45pm").start).toBeGreaterThan(of("42").end - of("42").start)
      expect(speech.words[0]!.start).toBeCloseTo(encoderDelaySeconds, 3)
      // The dash is not spoken: a zero-length span where "at 3:45pm" ... "—" falls.
      expect(of("—").end).toBe(of("—").start)
    }))

  it.effect("1000 characters are real MP3 (about a minute) with a timing per run", () =>
    Effect.gen(function*() {
      expect(thousand).toHaveLength(1000)
      const speech = yield* synthesize(thousand)
      yield* expectNarration(thousand, speech)
      expect(speech.durationSeconds).toBeGreaterThan(45)
      expect(speech.durationSeconds).toBeLessThan(80)
      // Spoken words spread over the whole audio, not bunched at the start.
      expect(speech.words.at(-1)!.start).toBeGreaterThan(speech.durationSeconds - 2)
    }))

  it.effect("while 1000 characters are spoken, the event loop keeps turning (the work is off the request thread)", () =>
    Effect.gen(function*() {
      const gaps: Array<number> = []
      let running = true
      let last = performance.now()
      const tick = () => {
        const now = performance.now()
        gaps.push(now - last)
        last = now
        if (running) setTimeout(tick, 0)
      }
      setTimeout(tick, 0)
      const started = performance.now()
      const speech = yield* synthesize(thousand, narrationVoiceIds[2]).pipe(Effect.ensuring(Effect.sync(() => {
        running = false
      })))
      const elapsed = performance.now() - started
      expect(speech.words).toHaveLength(wordRuns(thousand).length)
      // On the event loop the job would be one gap as long as the whole job. Measured against the job's own
      // length, not a fixed number of ms: on a loaded 2-core CI machine a GC pause or the scheduler alone once
      // made a 273 ms gap while the work was in its workers.
      expect(elapsed).toBeGreaterThan(400)
      expect(gaps.length).toBeGreaterThan(elapsed / 20)
      expect(Math.max(...gaps)).toBeLessThan(elapsed / 5)
    }))

  it.effect("each catalog voice maps to a distinct local voice, and the engine speaks in it: the female variants at about twice the male voices' pitch", () =>
    Effect.gen(function*() {
      expect(new Set(Object.values(localVoices)).size).toBe(narrationVoiceIds.length)
      const text = "Please wear your safety glasses in the workshop, every single day."
      const voiced = yield* Effect.forEach(narrationVoiceIds, (voiceId) => synthesize(text, voiceId))
      for (const speech of voiced) expect(wordTimingsProblem(text, speech.words, speech.durationSeconds)).toBeUndefined()
      const pitches = yield* Effect.promise(() => Promise.all(voiced.map((speech) => medianPitch(speech.mp3))))
      narrationVoiceIds.forEach((voiceId, i) => {
        const female = localVoices[voiceId].includes("+f")
        expect(pitches[i], `${voiceId} (${localVoices[voiceId]})`).toBeGreaterThan(female ? 160 : 80)
        expect(pitches[i], `${voiceId} (${localVoices[voiceId]})`).toBeLessThan(female ? 260 : 130)
      })
    }))

  it.effect("several narrations at once all finish, each with its own text's timings", () =>
    Effect.gen(function*() {
      const texts = ["First one.", "The second text is a little longer.", "Third & last <one>."]
      const results = yield* Effect.forEach(texts, (text) => synthesize(text), { concurrency: "unbounded" })
      results.forEach((speech, i) => expect(wordTimingsProblem(texts[i]!, speech.words, speech.durationSeconds)).toBeUndefined())
    }))
})

describe("the local speech worker pool", () => {
  it.scopedLive("an interrupted job does not wedge the pool: its thread is stopped and the next job gets a fresh one", () =>
    Effect.gen(function*() {
      const engine = yield* makeSpeechEngine({ ...settings, workers: 1 })
      // Warm the single thread so the timing below is the job's, not the start's.
      yield* engine.speak({ text: "Warm up.", voice: "en-us" })
      // About six seconds of work for the only thread.
      const long = engine.speak({ text: engineTextOf(thousand.repeat(5)).text, voice: "en-us" })
      const fiber = yield* Effect.fork(long)
      yield* Effect.sleep("150 millis")
      yield* Fiber.interrupt(fiber)
      const started = performance.now()
      const next = yield* engine.speak({ text: "Still here.", voice: "en-us+f3" })
      const elapsed = performance.now() - started
      expect(next.events.some((event) => event.type === "word")).toBe(true)
      // Had the thread been left to finish the long job first, this would take seconds.
      expect(elapsed).toBeLessThan(2_000)
    }), 30_000)

  it("LAME's encoder delay, by which word times are moved, is what a decoder plays before the speech", async () => {
    const encoder = await createMp3Encoder()
    encoder.configure({ sampleRate: 22_050, channels: 1, bitrate: 128, outputSampleRate: 44_100 })
    const pcm = new Float32Array(22_050)
    pcm[11_025] = 0.9
    const mp3 = Buffer.concat([encoder.encode([pcm]).slice(), encoder.finalize().slice()])
    const decoder = new MPEGDecoder()
    await decoder.ready
    const samples = decoder.decode(mp3).channelData[0]!
    decoder.free()
    let peak = 0
    for (let i = 1; i < samples.length; i++) if (Math.abs(samples[i]!) > Math.abs(samples[peak]!)) peak = i
    // The click was at 0.5 s.
    expect(Math.abs(peak / 44_100 - 0.5 - encoderDelaySeconds)).toBeLessThan(3 / 44_100)
  })
})
