import { Either } from "effect"
import { type NarrationWord, wordRuns, wordTimingsProblem } from "@tks/domain/narration"

/**
 * eSpeak-NG's word events -> one timing per whitespace-delimited run of the
 * text. Pure, so the rules are tested without the engine.
 *
 * The engine reads SSML, so `&`, `<` and `>` go in as entities, and it
 * reports positions as 1-based code points of the text it was given (an
 * entity counts as its characters). Its word events do not line up with runs
 * one to one: "42" is two words ("forty two"), "3:45pm" four, an emoji a few,
 * a dash none, and a word after the last one of a run may point at the space
 * after it. So each word event belongs to the last run starting at or before
 * its position, and a run lasts from its first word event to the next event
 * after its last one.
 */

/** A word event or an end-of-clause event, as the engine reported it. */
export interface EngineEvent {
  readonly type: "word" | "end"
  /** 1-based, in code points of the engine text. */
  readonly textPosition: number
  /** Milliseconds from the start of the synthesized speech. */
  readonly audioMs: number
}

/** A run of the caller's text, placed in the engine text: [start, end) in 0-based code points. */
interface EngineRun {
  readonly word: string
  readonly start: number
  readonly end: number
}

interface EngineText {
  /** The text with `&`, `<` and `>` escaped for the engine's SSML reader. */
  readonly text: string
  readonly runs: ReadonlyArray<EngineRun>
}

const entities: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" }

export const engineTextOf = (text: string): EngineText => {
  // The engine text's code-point position of each UTF-16 offset of `text` that starts a character.
  const positions = new Array<number>(text.length + 1)
  const parts: Array<string> = []
  let position = 0
  for (let offset = 0; offset < text.length;) {
    positions[offset] = position
    const character = String.fromCodePoint(text.codePointAt(offset)!)
    const escaped = entities[character]
    parts.push(escaped ?? character)
    position += escaped === undefined ? 1 : escaped.length
    offset += character.length
  }
  positions[text.length] = position
  return {
    text: parts.join(""),
    runs: wordRuns(text).map((run) => ({ word: run.word, start: positions[run.start]!, end: positions[run.end]! }))
  }
}

interface EngineAudio {
  /** Length of the synthesized speech. */
  readonly speechMs: number
  /** Where the speech starts in the MP3: the encoder's delay. */
  readonly offsetSeconds: number
  /** The MP3's length, read from its frames. */
  readonly durationSeconds: number
}

/** The index of the last run starting at or before `position` (0-based), or 0. */
const runAt = (runs: ReadonlyArray<EngineRun>, position: number): number => {
  let low = 0
  let high = runs.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (runs[middle]!.start <= position) low = middle
    else high = middle - 1
  }
  return low
}

const eventsProblem = (text: string, events: ReadonlyArray<EngineEvent>): string | undefined => {
  let previousMs = 0
  for (const event of events) {
    if (!Number.isFinite(event.textPosition) || !Number.isFinite(event.audioMs) || event.audioMs < 0) {
      return "the engine reported an event without a usable position"
    }
    if (event.audioMs < previousMs) return "the engine's audio positions go backwards"
    previousMs = event.audioMs
  }
  if (!events.some((event) => event.type === "word") && /[\p{L}\p{N}]/u.test(text)) {
    return "the engine reported no words for a text with letters or digits"
  }
  return undefined
}

/**
 * The timings of `text`'s runs, or why the events cannot give them. A run
 * without word events gets a zero-length span where the run before it ended;
 * times never go back and never pass the end of the audio.
 */
export const wordTimingsFromEvents = (
  text: string,
  events: ReadonlyArray<EngineEvent>,
  audio: EngineAudio
): Either.Either<ReadonlyArray<NarrationWord>, string> => {
  const problem = eventsProblem(text, events)
  if (problem !== undefined) return Either.left(problem)
  const { runs } = engineTextOf(text)
  const firstEvent = new Array<number | undefined>(runs.length)
  const lastEvent = new Array<number | undefined>(runs.length)
  events.forEach((event, index) => {
    if (event.type !== "word" || runs.length === 0) return
    const run = runAt(runs, event.textPosition - 1)
    firstEvent[run] ??= index
    lastEvent[run] = index
  })

  // Whole milliseconds: the engine's unit, and no float noise on the wire.
  const seconds = (ms: number) => Math.min(Math.round(ms + audio.offsetSeconds * 1000) / 1000, audio.durationSeconds)
  const speechEnd = seconds(audio.speechMs)
  const words: Array<NarrationWord> = []
  let previousStart = 0
  let previousEnd = seconds(0)
  runs.forEach((run, index) => {
    const first = firstEvent[index]
    const last = lastEvent[index]
    if (first === undefined || last === undefined) {
      words.push({ word: run.word, start: previousEnd, end: previousEnd })
      previousStart = Math.max(previousStart, previousEnd)
      return
    }
    const next = events[last + 1]
    const start = Math.max(seconds(events[first]!.audioMs), previousStart)
    const end = Math.max(next === undefined ? speechEnd : seconds(next.audioMs), start)
    words.push({ word: run.word, start, end })
    previousStart = start
    previousEnd = end
  })
  const timingsProblem = wordTimingsProblem(text, words, audio.durationSeconds)
  return timingsProblem === undefined ? Either.right(words) : Either.left(timingsProblem)
}
