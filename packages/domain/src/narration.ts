import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Timestamp } from "./common.js"
import { characterCount } from "./intake.js"
import { refusalFields } from "./rate-limit.js"
import { storableText } from "./text.js"

/**
 * Voice narration: the request, the answer, the allowance and
 * the rules every speech provider's output is held to. Pure: core applies
 * them, the speech adapters produce what they check.
 */

/** The catalog, in order; the first is the default. */
export const narrationVoiceIds = [
  "nPczCjzI2devNBz1zQrb",
  "XrExE9yKIg1WjnnlVkGX",
  "onwK4e9ZLuTAKqWW03F9",
  "cgSgspJ2msm6clMCkdW9",
  "pNInz6obpgDQGcFmaJgB",
  "pFZP5JQG7iQjIQuC4Bku"
] as const

export const VoiceId = Schema.Literal(...narrationVoiceIds).annotations({
  identifier: "VoiceId",
  description: "One of the six catalog voices"
})
export type VoiceId = typeof VoiceId.Type

export const defaultVoiceId: VoiceId = narrationVoiceIds[0]

/** The text, trimmed, is 1 to 1000 characters. */
export const narrationTextMaxCharacters = 1000
/** Characters per organization per UTC calendar month, shared by all its people. */
export const narrationMonthlyAllowance = 100_000

export const narrationTextProblems = {
  empty: "text must not be empty (after trimming surrounding whitespace)",
  tooLong: `text must be at most ${narrationTextMaxCharacters} characters (after trimming surrounding whitespace)`
} as const

/** Characters are code points, as for titles: an emoji counts once. */
const NarrationText = storableText(Schema.Trim).pipe(
  Schema.filter((text) => {
    if (text.length === 0) return narrationTextProblems.empty
    if (characterCount(text) > narrationTextMaxCharacters) return narrationTextProblems.tooLong
    return true
  }, {
    jsonSchema: { minLength: 1, maxLength: narrationTextMaxCharacters },
    description: `The text to speak: surrounding whitespace is trimmed, then 1 to ${narrationTextMaxCharacters} characters, each counted against the monthly allowance`
  })
)

export class NarrationRequest extends Schema.Class<NarrationRequest>("NarrationRequest")({
  text: NarrationText,
  /** Optional; the first catalog voice when absent. */
  voiceId: Schema.optionalWith(VoiceId, { exact: true })
}) {}

export const narrationAudioFormat = "mp3_44100_128" as const
export const narrationMimeType = "audio/mpeg" as const

export const NarrationAudio = Schema.Struct({
  base64: Schema.String.annotations({ description: "The MP3 file, base64-encoded: MPEG-1 Layer III, 44.1 kHz, 128 kbps" }),
  format: Schema.Literal(narrationAudioFormat),
  mimeType: Schema.Literal(narrationMimeType)
}).annotations({ identifier: "NarrationAudio" })

export const NarrationWord = Schema.Struct({
  word: Schema.String.annotations({ description: "A whitespace-delimited run of the text as sent, punctuation attached" }),
  start: Schema.Number.annotations({ description: "Seconds from the start of the audio" }),
  end: Schema.Number.annotations({ description: "Seconds from the start of the audio; never before start" })
}).annotations({ identifier: "NarrationWord" })
export type NarrationWord = typeof NarrationWord.Type

export const Narration = Schema.Struct({
  audio: NarrationAudio,
  words: Schema.Array(NarrationWord),
  characters: Schema.Int.annotations({ description: "Characters counted against the monthly allowance (the trimmed text's length)" })
}).annotations({ identifier: "Narration" })
export type Narration = typeof Narration.Type

export const NarrationUsage = Schema.Struct({
  month: Schema.String.annotations({ description: "The UTC calendar month, YYYY-MM" }),
  limit: Schema.Int.annotations({ description: "Characters the organization may narrate this month" }),
  used: Schema.Int.annotations({ description: "Characters counted this month, those reserved by narrations still running included" }),
  reserved: Schema.Int.annotations({ description: "Of `used`, characters reserved by narrations still running" }),
  remaining: Schema.Int,
  resetsAt: Timestamp.annotations({ description: "When the next month's allowance starts (ISO 8601 in UTC with milliseconds)" }),
  requests: Schema.Struct({
    completed: Schema.Int,
    providerFailed: Schema.Int.annotations({ description: "The provider produced nothing; the characters were given back" }),
    timingsUnreadable: Schema.Int.annotations({ description: "Audio came back without readable word timings; the characters stay counted" }),
    quotaExceeded: Schema.Int,
    released: Schema.Int.annotations({ description: "Abandoned (the caller went away, or the request died and was reaped); given back" })
  }).annotations({ description: "This month's narration requests by outcome" })
}).annotations({ identifier: "NarrationUsage" })
export type NarrationUsage = typeof NarrationUsage.Type

export const NARRATION_PROVIDER_FAILED = "NARRATION_PROVIDER_FAILED"
export const NARRATION_QUOTA_EXCEEDED = "NARRATION_QUOTA_EXCEEDED"

/** The speech provider gave no usable audio; nothing counted unless the message says otherwise. */
export class NarrationProviderFailed extends Schema.TaggedError<NarrationProviderFailed>()(
  "NarrationProviderFailed",
  {
    code: Schema.Literal(NARRATION_PROVIDER_FAILED).pipe(
      Schema.propertySignature,
      Schema.withConstructorDefault(() => NARRATION_PROVIDER_FAILED)
    ),
    message: Schema.String,
    /** Characters that stayed counted against the allowance: 0 unless audio came back without readable timings. */
    charactersCounted: Schema.Int
  },
  HttpApiSchema.annotations({
    status: 503,
    description:
      "NARRATION_PROVIDER_FAILED: the speech provider gave no usable audio. Nothing is counted (charactersCounted 0) unless the message says otherwise: audio whose word timings cannot be read keeps its characters counted."
  })
) {}

/**
 * "Narration 429 without a code means too many requests too
 * quickly": the per-token burst limit, told apart from the allowance's
 * NARRATION_QUOTA_EXCEEDED by having no `code`. Retry-After is set.
 */
export class NarrationTooQuick extends Schema.TaggedError<NarrationTooQuick>()(
  "NarrationTooQuick",
  refusalFields,
  HttpApiSchema.annotations({
    status: 429,
    description:
      "Too many narration requests from this access token too quickly (20 in 10 seconds, 300 an hour): a 429 without a `code`. Retry after `Retry-After` seconds; nothing was counted."
  })
) {}

/** A whitespace-delimited run of the text, with its UTF-16 offsets [start, end). */
export interface WordRun {
  readonly word: string
  readonly start: number
  readonly end: number
}

/** Each whitespace-delimited run of the text as sent, in order, punctuation attached. */
export const wordRuns = (text: string): ReadonlyArray<WordRun> =>
  Array.from(text.matchAll(/\S+/g), (match) => ({ word: match[0], start: match.index, end: match.index + match[0].length }))

/**
 * Why `words` cannot be the timings of `text` spoken in `durationSeconds` of
 * audio, or undefined when they can: one entry per run with the run's exact
 * text, finite times, start <= end, starts never going back, and the last end
 * within the audio. Every provider's output is held to it.
 */
export const wordTimingsProblem = (
  text: string,
  words: ReadonlyArray<NarrationWord>,
  durationSeconds: number
): string | undefined => {
  const runs = wordRuns(text)
  if (words.length !== runs.length) return `expected ${runs.length} words, got ${words.length}`
  // MP3 frames are 26 ms: a time a few ms past the last frame is rounding, not a fault.
  const tolerance = 0.005
  let previousStart = 0
  for (let i = 0; i < runs.length; i++) {
    const word = words[i]!
    if (word.word !== runs[i]!.word) return `word ${i + 1} is ${JSON.stringify(word.word)}, expected ${JSON.stringify(runs[i]!.word)}`
    if (!Number.isFinite(word.start) || !Number.isFinite(word.end)) return `word ${i + 1} has a time that is not a number`
    if (word.start < 0 || word.end < word.start) return `word ${i + 1} ends before it starts`
    if (word.start < previousStart) return `word ${i + 1} starts before the word before it`
    if (word.end > durationSeconds + tolerance) return `word ${i + 1} ends after the audio (${durationSeconds.toFixed(3)} s)`
    previousStart = word.start
  }
  return undefined
}

/** The UTC calendar month holding `epochMs`: its key (YYYY-MM), its first day, and when the next starts. */
export const narrationMonth = (epochMs: number) => {
  const at = new Date(epochMs)
  const year = at.getUTCFullYear()
  const month = at.getUTCMonth()
  const startsAt = Date.UTC(year, month, 1)
  const resetsAt = Date.UTC(year, month + 1, 1)
  return {
    key: `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}`,
    firstDay: new Date(startsAt).toISOString().slice(0, 10),
    startsAt,
    resetsAt
  }
}

/** Whole seconds (at least 1) from `epochMs` until the next UTC month starts: the quota 429's Retry-After. */
export const secondsUntilNextMonth = (epochMs: number): number =>
  Math.max(1, Math.ceil((narrationMonth(epochMs).resetsAt - epochMs) / 1000))
