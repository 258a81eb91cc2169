import { Context, type Effect, Schema } from "effect"
import type { NarrationWord, VoiceId } from "@tks/domain/narration"

/** What to speak: the trimmed text as the caller sent it, in one of the catalog voices. */
export interface SpeechRequest {
  readonly text: string
  readonly voiceId: VoiceId
}

/** Speech with its word timings. */
export interface Speech {
  /** An MP3 file: MPEG-1 Layer III frames, 44.1 kHz, 128 kbps. */
  readonly mp3: Uint8Array
  /** The audio's length, read from its frames. */
  readonly durationSeconds: number
  /** One entry per whitespace-delimited run of the text (`wordRuns`), in seconds from the start of the audio. */
  readonly words: ReadonlyArray<NarrationWord>
}

/** The provider produced no usable audio: the caller's characters are given back. `reason` is for the log. */
export class SpeechFailed extends Schema.TaggedError<SpeechFailed>()("SpeechFailed", {
  reason: Schema.String
}) {}

/** Audio came back, but its word timings cannot be read: the characters stay counted. */
export class SpeechTimingsUnreadable extends Schema.TaggedError<SpeechTimingsUnreadable>()("SpeechTimingsUnreadable", {
  reason: Schema.String
}) {}

/** The speech port: the local eSpeak-NG engine by default, ElevenLabs in production. */
export class SpeechSynthesizer extends Context.Tag("@tks/adapters/SpeechSynthesizer")<SpeechSynthesizer, {
  /** Which provider answers, for the request record and the logs ("local", "elevenlabs"). */
  readonly provider: string
  readonly synthesize: (request: SpeechRequest) => Effect.Effect<Speech, SpeechFailed | SpeechTimingsUnreadable>
}>() {}
