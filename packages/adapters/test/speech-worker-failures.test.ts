import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit } from "effect"
import { makeLocalSpeech } from "@tks/adapters/speech/local"
import { SpeechFailed, SpeechTimingsUnreadable } from "@tks/adapters/speech/port"
import { EngineFailed, makeSpeechEngine } from "@tks/adapters/speech/speech-workers"

const fake = new URL("./support/fake-speech-worker.mjs", import.meta.url)
const broken = new URL("./support/broken-speech-worker.mjs", import.meta.url)

const settings = { workers: 1, jobTimeout: Duration.seconds(5), idleTimeout: Duration.minutes(1), workerUrl: fake }

const failureOf = <A, E>(exit: Exit.Exit<A, E>) => Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined

const job = (text: string) => ({ text, voice: "en-us" })

// scopedLive: job time limits run on the real clock.
describe("the speech worker pool when a thread fails (the job fails, the pool carries on)", () => {
  it.scopedLive("a thread that exits mid-job fails that job, and the next job gets a fresh thread", () =>
    Effect.gen(function*() {
      const engine = yield* makeSpeechEngine(settings)
      const exit = yield* Effect.exit(engine.speak(job("crash")))
      expect(failureOf(exit)).toEqual(new EngineFailed({ reason: "the speech worker stopped (exit code 3)" }))
      const next = yield* engine.speak(job("still here"))
      expect(next.events).toHaveLength(2)
    }))

  it.scopedLive("a thread that throws outside any handler fails its job with the error, and the pool carries on", () =>
    Effect.gen(function*() {
      const engine = yield* makeSpeechEngine(settings)
      const exit = yield* Effect.exit(engine.speak(job("throw")))
      expect(failureOf(exit)).toEqual(new EngineFailed({ reason: "the speech worker crashed: boom" }))
      expect((yield* engine.speak(job("fine"))).events).toHaveLength(1)
    }))

  it.scopedLive("a thread that does not answer within the time limit fails the job; the next gets a fresh thread", () =>
    Effect.gen(function*() {
      const engine = yield* makeSpeechEngine({ ...settings, jobTimeout: Duration.millis(300) })
      const exit = yield* Effect.exit(engine.speak(job("hang")))
      expect(failureOf(exit)).toEqual(new EngineFailed({ reason: "the speech worker did not answer within 300ms" }))
      expect((yield* engine.speak(job("fine"))).events).toHaveLength(1)
    }))

  it.scopedLive("a thread that stopped while idle is not handed a job: the job goes to a fresh thread", () =>
    Effect.gen(function*() {
      const engine = yield* makeSpeechEngine(settings)
      yield* engine.speak(job("die-later"))
      yield* Effect.sleep("200 millis")
      expect((yield* engine.speak(job("after the exit"))).events).toHaveLength(3)
    }))

  it.scopedLive("a thread whose engine does not load fails the job instead of hanging it", () =>
    Effect.gen(function*() {
      const engine = yield* makeSpeechEngine({ ...settings, workerUrl: broken })
      const exit = yield* Effect.exit(engine.speak(job("hello")))
      expect(failureOf(exit)).toEqual(new EngineFailed({ reason: "the speech worker crashed: the engine's WASM did not load" }))
    }))
})

describe("the local speech provider's failures (nothing usable gives the characters back; audio without timings keeps them)", () => {
  const synthesize = (text: string) =>
    Effect.flatMap(makeLocalSpeech(settings), (speech) => Effect.exit(speech.synthesize({ text, voiceId: "nPczCjzI2devNBz1zQrb" })))

  it.scopedLive("an engine that refuses the job is SpeechFailed", () =>
    Effect.gen(function*() {
      expect(failureOf(yield* synthesize("refuse"))).toEqual(new SpeechFailed({ reason: "voice en-us did not load (status 2)" }))
    }))

  it.scopedLive("a crashed engine is SpeechFailed", () =>
    Effect.gen(function*() {
      expect(failureOf(yield* synthesize("crash"))).toBeInstanceOf(SpeechFailed)
    }))

  it.scopedLive("audio that is not MP3 is SpeechFailed", () =>
    Effect.gen(function*() {
      expect(failureOf(yield* synthesize("bad-audio"))).toEqual(new SpeechFailed({
        reason: "the encoder's audio is unusable: the audio is not a run of MPEG frames: no frame header at byte 0"
      }))
    }))

  it.scopedLive("good audio without word events for a text with letters is SpeechTimingsUnreadable", () =>
    Effect.gen(function*() {
      expect(failureOf(yield* synthesize("silent-words"))).toEqual(new SpeechTimingsUnreadable({
        reason: "the engine reported no words for a text with letters or digits"
      }))
    }))

  it.scopedLive("good audio with usable events is speech whose words fit it", () =>
    Effect.gen(function*() {
      const exit = yield* synthesize("two words")
      expect(Exit.isSuccess(exit)).toBe(true)
      if (Exit.isSuccess(exit)) expect(exit.value.words.map((w) => w.word)).toEqual(["two", "words"])
    }))
})
