import { Either } from "effect"
import { type NarrationWord, wordRuns, wordTimingsProblem } from "@tks/domain/narration"

/**
 * A character alignment (ElevenLabs' with-timestamps answer: each character
 * of the text sent, with when it starts and ends) -> one timing per
 * whitespace-delimited run: from the start of the run's first
 * character to the end of its last. Pure, tested without the service.
 */
export interface CharacterAlignment {
  readonly characters: ReadonlyArray<string>
  readonly character_start_times_seconds: ReadonlyArray<number>
  readonly character_end_times_seconds: ReadonlyArray<number>
}

/**
 * Times a few milliseconds past the last frame are rounding; one MP3 frame
 * (26 ms) is allowed, and the words are capped to the audio.
 */
const pastTheAudioTolerance = 1152 / 44_100

const alignmentProblem = (text: string, alignment: CharacterAlignment, durationSeconds: number): string | undefined => {
  const { characters, character_end_times_seconds: ends, character_start_times_seconds: starts } = alignment
  if (characters.length !== starts.length || characters.length !== ends.length) {
    return `the alignment's arrays differ in length (${characters.length} characters, ${starts.length} starts, ${ends.length} ends)`
  }
  if (characters.join("") !== text) return "the alignment's characters are not the text sent"
  let previousStart = 0
  for (let i = 0; i < characters.length; i++) {
    const start = starts[i]!
    const end = ends[i]!
    if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0) {
      return `character ${i + 1} of the alignment has no usable time`
    }
    if (end < start) return `character ${i + 1} of the alignment ends before it starts`
    if (start < previousStart) return `character ${i + 1} of the alignment starts before the one before it`
    if (end > durationSeconds + pastTheAudioTolerance) {
      return `character ${i + 1} of the alignment ends at ${end} s, after the audio (${durationSeconds.toFixed(3)} s)`
    }
    previousStart = start
  }
  return undefined
}

export const wordTimingsFromAlignment = (
  text: string,
  alignment: CharacterAlignment,
  durationSeconds: number
): Either.Either<ReadonlyArray<NarrationWord>, string> => {
  const problem = alignmentProblem(text, alignment, durationSeconds)
  if (problem !== undefined) return Either.left(problem)
  // The alignment entry holding each UTF-16 unit of the text: an entry may be more than one (an emoji).
  const entryOf: Array<number> = []
  alignment.characters.forEach((character, entry) => {
    for (let unit = 0; unit < character.length; unit++) entryOf.push(entry)
  })
  const cap = (seconds: number) => Math.min(seconds, durationSeconds)
  const words = wordRuns(text).map((run): NarrationWord => {
    const start = cap(alignment.character_start_times_seconds[entryOf[run.start]!]!)
    const end = cap(alignment.character_end_times_seconds[entryOf[run.end - 1]!]!)
    return { word: run.word, start, end: Math.max(end, start) }
  })
  const timingsProblem = wordTimingsProblem(text, words, durationSeconds)
  return timingsProblem === undefined ? Either.right(words) : Either.left(timingsProblem)
}
