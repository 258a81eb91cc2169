import type { VoiceId } from "@tks/domain/narration"
import { Config, type ConfigError, Duration, Effect, Either, Layer } from "effect"
import { positiveInteger } from "../config.js"
import { engineTextOf, wordTimingsFromEvents } from "./espeak-timings.js"
import { readMp3Frames } from "./mp3-frames.js"
import { type Speech, SpeechFailed, type SpeechRequest, SpeechSynthesizer, SpeechTimingsUnreadable } from "./port.js"
import { defaultWorkerCount, makeSpeechEngine, type SpeechEngineSettings } from "./speech-workers.js"

/**
 * The local speech provider: eSpeak-NG speaks, LAME encodes MP3
 * (MPEG-1 Layer III, 44.1 kHz, 128 kbps), both WASM, in worker threads. Works
 * offline; robotic, but real audio with real word timings.
 */

/** Each catalog voice as a distinct eSpeak-NG voice: American or British, lower or higher. */
export const localVoices: Readonly<Record<VoiceId, string>> = {
  nPczCjzI2devNBz1zQrb: "en-us",
  XrExE9yKIg1WjnnlVkGX: "en-us+f3",
  onwK4e9ZLuTAKqWW03F9: "en-gb-x-rp",
  cgSgspJ2msm6clMCkdW9: "en-us+f4",
  pNInz6obpgDQGcFmaJgB: "en-us+m3",
  pFZP5JQG7iQjIQuC4Bku: "en-gb-x-rp+f2"
}

/**
 * LAME starts its stream with 576 + 529 samples of its own (measured: a click
 * at 0.5 s decodes at 0.5 s + 1,107 samples) and, streaming, writes no Info
 * frame telling players to skip them, so they play: the speech, and its word
 * times, start this much into the MP3.
 */
export const encoderDelaySeconds = 1105 / 44_100

/** SPEECH_WORKERS (threads, default one fewer than the CPUs, 1 to 4) and SPEECH_TIMEOUT_MS (per job, default 60 s). */
export const LocalSpeechConfig: Config.Config<SpeechEngineSettings> = Config.all({
  workers: positiveInteger("SPEECH_WORKERS", defaultWorkerCount()),
  jobTimeout: positiveInteger("SPEECH_TIMEOUT_MS", 30_000).pipe(Config.map(Duration.millis)),
  idleTimeout: Config.succeed(Duration.minutes(5))
})

const failed = (reason: string) =>
  Effect.logWarning("local speech failed").pipe(
    Effect.annotateLogs({ reason }),
    Effect.zipRight(Effect.fail(new SpeechFailed({ reason })))
  )

const unreadable = (reason: string) =>
  Effect.logWarning("local speech: word timings unreadable").pipe(
    Effect.annotateLogs({ reason }),
    Effect.zipRight(Effect.fail(new SpeechTimingsUnreadable({ reason })))
  )

export const makeLocalSpeech = (settings: SpeechEngineSettings) =>
  Effect.gen(function*() {
    const engine = yield* makeSpeechEngine(settings)

    const synthesize = Effect.fn("SpeechSynthesizer.local")(function*(request: SpeechRequest) {
      const voice = localVoices[request.voiceId]
      const output = yield* engine.speak({ text: engineTextOf(request.text).text, voice }).pipe(
        Effect.catchTag("EngineFailed", (error) => failed(error.reason))
      )
      yield* Effect.annotateCurrentSpan({
        "speech.voice": voice,
        "speech.synth_ms": Math.round(output.synthMs),
        "speech.encode_ms": Math.round(output.encodeMs)
      })
      const audio = readMp3Frames(output.mp3)
      if (Either.isLeft(audio)) return yield* failed(`the encoder's audio is unusable: ${audio.left}`)
      const words = wordTimingsFromEvents(request.text, output.events, {
        speechMs: output.speechMs,
        offsetSeconds: encoderDelaySeconds,
        durationSeconds: audio.right.durationSeconds
      })
      if (Either.isLeft(words)) return yield* unreadable(words.left)
      return { mp3: output.mp3, durationSeconds: audio.right.durationSeconds, words: words.right } satisfies Speech
    })

    return SpeechSynthesizer.of({ provider: "local", synthesize })
  })

/** The local provider with explicit settings; its threads stop with the layer. */
export const localSpeechLayer = (settings: SpeechEngineSettings): Layer.Layer<SpeechSynthesizer> =>
  Layer.scoped(SpeechSynthesizer, makeLocalSpeech(settings))

/** The local provider configured by SPEECH_WORKERS and SPEECH_TIMEOUT_MS. */
export const LocalSpeechLive: Layer.Layer<SpeechSynthesizer, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(LocalSpeechConfig, localSpeechLayer)
)
