import { Config, type ConfigError, Effect, Layer, Option, Redacted } from "effect"
import { ElevenLabsConfig, elevenLabsLayer } from "./elevenlabs.js"
import { LocalSpeechConfig, localSpeechLayer } from "./local.js"
import type { SpeechSynthesizer } from "./port.js"

export { ElevenLabsSpeechLive, makeElevenLabs } from "./elevenlabs.js"
export { LocalSpeechLive } from "./local.js"

/**
 * The speech provider the environment asks for: ElevenLabs when
 * ELEVENLABS_API_KEY is set, else the local eSpeak-NG engine. Says which at
 * start.
 */
export const SpeechSynthesizerLive: Layer.Layer<SpeechSynthesizer, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const key = yield* Config.option(Config.redacted("ELEVENLABS_API_KEY"))
    if (!Option.exists(key, (value) => Redacted.value(value).trim() !== "")) {
      const settings = yield* LocalSpeechConfig
      yield* Effect.logInfo("speech: local eSpeak-NG (set ELEVENLABS_API_KEY to narrate with ElevenLabs)").pipe(
        Effect.annotateLogs({ workers: settings.workers })
      )
      return localSpeechLayer(settings)
    }
    const settings = yield* ElevenLabsConfig
    yield* Effect.logInfo("speech: ElevenLabs").pipe(
      Effect.annotateLogs({ model: settings.modelId, baseUrl: settings.baseUrl.href })
    )
    return elevenLabsLayer(settings)
  })
)
