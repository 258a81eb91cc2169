import { FetchHttpClient, Headers, HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { narrationAudioFormat } from "@tks/domain/narration"
import { Config, type ConfigError, Data, Duration, Effect, Either, Layer, Redacted, Schedule, Schema } from "effect"
import { httpUrl, positiveInteger } from "../config.js"
import { wordTimingsFromAlignment } from "./alignment-timings.js"
import { readMp3Frames } from "./mp3-frames.js"
import { type Speech, SpeechFailed, type SpeechRequest, SpeechSynthesizer, SpeechTimingsUnreadable } from "./port.js"

/**
 * ElevenLabs text to speech with character timings:
 * `POST {base}/v1/text-to-speech/{voiceId}/with-timestamps?output_format=mp3_44100_128`
 * (the catalog ids are ElevenLabs voice ids). The answer holds the MP3 in
 * base64 and when each character of the text is spoken. No usable audio is
 * `SpeechFailed` (the caller's characters are given back); audio whose
 * alignment cannot be read is `SpeechTimingsUnreadable` (they stay counted).
 * Neither the text nor the key is logged or put in a trace.
 */
export interface ElevenLabsSettings {
  readonly baseUrl: URL
  readonly apiKey: Redacted.Redacted
  readonly modelId: string
  /** For one attempt: connecting, the answer and its body. */
  readonly timeout: Duration.Duration
  /** Before the first retry; doubled before the second. */
  readonly retryDelay: Duration.Duration
}

export const ElevenLabsConfig: Config.Config<ElevenLabsSettings> = Config.all({
  baseUrl: httpUrl("ELEVENLABS_BASE_URL", "https://api.elevenlabs.io"),
  apiKey: Config.redacted("ELEVENLABS_API_KEY"),
  modelId: Config.string("ELEVENLABS_MODEL_ID").pipe(Config.withDefault("eleven_multilingual_v2")),
  // 1000 characters take the service several seconds.
  timeout: positiveInteger("ELEVENLABS_TIMEOUT_MS", 20_000).pipe(Config.map(Duration.millis)),
  retryDelay: Config.succeed(Duration.millis(500))
})

/** Retries: a rate limit, a server error, no answer or no connection may pass. */
const retries = 2

/** Worth another attempt; after the last, `SpeechFailed`. */
class Transient extends Data.TaggedError("Transient")<{ readonly reason: string }> {}

const Answer = Schema.Struct({
  audio_base64: Schema.optional(Schema.NullOr(Schema.String)),
  alignment: Schema.optional(Schema.Unknown)
})

const Alignment = Schema.Struct({
  characters: Schema.Array(Schema.String),
  character_start_times_seconds: Schema.Array(Schema.Number),
  character_end_times_seconds: Schema.Array(Schema.Number)
})

// Buffer.from(..., "base64") skips what is not base64; audio that is not base64 is not audio.
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** The endpoint for a voice; a base with a path (a proxy's prefix) keeps it. */
const endpointOf = (base: URL, voiceId: string): string =>
  `${base.href.replace(/\/+$/, "")}/v1/text-to-speech/${encodeURIComponent(voiceId)}/with-timestamps`

/** The header the key travels in, kept out of trace attributes like the platform's own secret headers. */
const keyHeader = "xi-api-key"

const fail = (voiceId: string, reason: string) =>
  Effect.logWarning("ElevenLabs speech failed").pipe(
    Effect.annotateLogs({ voiceId, reason }),
    Effect.zipRight(Effect.fail(new SpeechFailed({ reason })))
  )

const unreadable = (voiceId: string, reason: string) =>
  Effect.logWarning("ElevenLabs speech: word timings unreadable").pipe(
    Effect.annotateLogs({ voiceId, reason }),
    Effect.zipRight(Effect.fail(new SpeechTimingsUnreadable({ reason })))
  )

/** The answer's body, or why not: 429 and 5xx may pass, other statuses will not. */
const bodyOf = (response: HttpClientResponse.HttpClientResponse) => {
  if (response.status >= 200 && response.status < 300) {
    return response.json.pipe(Effect.mapError(() => new SpeechFailed({ reason: "the answer is not JSON" })))
  }
  const reason = `HTTP ${response.status}`
  // The body is read (so the connection is freed) but not kept: it might quote the text.
  return response.text.pipe(
    Effect.ignore,
    Effect.zipRight(Effect.fail(
      response.status === 429 || response.status >= 500 ? new Transient({ reason }) : new SpeechFailed({ reason })
    ))
  )
}

export const makeElevenLabs = (settings: ElevenLabsSettings) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient

    const attempt = (request: HttpClientRequest.HttpClientRequest) =>
      client.execute(request).pipe(
        Effect.mapError((error) => new Transient({ reason: `request failed: ${error.message}` })),
        Effect.flatMap(bodyOf),
        Effect.timeoutFail({
          duration: settings.timeout,
          onTimeout: () => new Transient({ reason: `no answer within ${Duration.format(settings.timeout)}` })
        }),
        Effect.locallyWith(Headers.currentRedactedNames, (names) => [...names, keyHeader])
      )

    const synthesize = Effect.fn("SpeechSynthesizer.elevenlabs")(function*({ text, voiceId }: SpeechRequest) {
      yield* Effect.annotateCurrentSpan({ "speech.voice": voiceId, "speech.model": settings.modelId })
      const request = HttpClientRequest.post(endpointOf(settings.baseUrl, voiceId), {
        urlParams: { output_format: narrationAudioFormat },
        headers: { [keyHeader]: Redacted.value(settings.apiKey), accept: "application/json" }
      }).pipe(HttpClientRequest.bodyUnsafeJson({ text, model_id: settings.modelId }))

      const body = yield* attempt(request).pipe(
        Effect.retry({
          schedule: Schedule.exponential(settings.retryDelay),
          times: retries,
          while: (error) => error._tag === "Transient"
        }),
        Effect.catchAll((error) => fail(voiceId, error.reason))
      )

      const answer = Schema.decodeUnknownEither(Answer)(body)
      if (Either.isLeft(answer)) return yield* fail(voiceId, "the answer is not a with-timestamps answer")
      const audioBase64 = answer.right.audio_base64 ?? ""
      if (audioBase64 === "") return yield* fail(voiceId, "the answer has no audio")
      if (!base64Pattern.test(audioBase64)) return yield* fail(voiceId, "the answer's audio is not base64")
      const mp3 = new Uint8Array(Buffer.from(audioBase64, "base64"))
      const audio = readMp3Frames(mp3)
      if (Either.isLeft(audio)) return yield* fail(voiceId, `the answer's audio is unusable: ${audio.left}`)

      const alignment = Schema.decodeUnknownEither(Alignment)(answer.right.alignment)
      if (Either.isLeft(alignment)) return yield* unreadable(voiceId, "the answer's character alignment is missing or malformed")
      const words = wordTimingsFromAlignment(text, alignment.right, audio.right.durationSeconds)
      if (Either.isLeft(words)) return yield* unreadable(voiceId, words.left)
      return { mp3, durationSeconds: audio.right.durationSeconds, words: words.right } satisfies Speech
    })

    return SpeechSynthesizer.of({ provider: "elevenlabs", synthesize })
  })

/** ElevenLabs with explicit settings, over the platform's fetch client. */
export const elevenLabsLayer = (settings: ElevenLabsSettings): Layer.Layer<SpeechSynthesizer> =>
  Layer.effect(SpeechSynthesizer, makeElevenLabs(settings)).pipe(Layer.provide(FetchHttpClient.layer))

/** ElevenLabs configured by ELEVENLABS_API_KEY, ELEVENLABS_BASE_URL, ELEVENLABS_MODEL_ID and ELEVENLABS_TIMEOUT_MS. */
export const ElevenLabsSpeechLive: Layer.Layer<SpeechSynthesizer, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(ElevenLabsConfig, elevenLabsLayer)
)
