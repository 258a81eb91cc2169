import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { wordTimingsProblem } from "@tks/domain/narration"
import { type CharacterAlignment, wordTimingsFromAlignment } from "@tks/adapters/speech/alignment-timings"

/** Each entry `step` seconds long, one after another, as ElevenLabs answers. */
const evenly = (characters: ReadonlyArray<string>, step = 0.1): CharacterAlignment => ({
  characters,
  character_start_times_seconds: characters.map((_, i) => Math.round(i * step * 1000) / 1000),
  character_end_times_seconds: characters.map((_, i) => Math.round((i + 1) * step * 1000) / 1000)
})

const timings = (text: string, alignment: CharacterAlignment, duration = 10) =>
  Either.getOrThrowWith(wordTimingsFromAlignment(text, alignment, duration), (problem) => new Error(problem))

const problemOf = (text: string, alignment: CharacterAlignment, duration = 10) =>
  Either.match(wordTimingsFromAlignment(text, alignment, duration), { onLeft: (problem) => problem, onRight: () => "no problem" })

describe("a character alignment -> word timings (a run lasts from its first character's start to its last's end)", () => {
  it("each run spans its first character's start to its last character's end, punctuation attached", () => {
    const text = "Hi, you  there."
    expect(timings(text, evenly(Array.from(text)))).toEqual([
      { word: "Hi,", start: 0, end: 0.3 },
      { word: "you", start: 0.4, end: 0.7 },
      { word: "there.", start: 0.9, end: 1.5 }
    ])
  })

  it("an emoji is one entry (a code point) or two (UTF-16 units): either way its run is placed right", () => {
    const text = "go 😀 now"
    const byCodePoint = timings(text, evenly(Array.from(text)))
    expect(byCodePoint).toEqual([
      { word: "go", start: 0, end: 0.2 },
      { word: "😀", start: 0.3, end: 0.4 },
      { word: "now", start: 0.5, end: 0.8 }
    ])
    const byUnit = timings(text, evenly(text.split("")))
    expect(byUnit).toEqual([
      { word: "go", start: 0, end: 0.2 },
      { word: "😀", start: 0.3, end: 0.5 },
      { word: "now", start: 0.6, end: 0.9 }
    ])
  })

  it("an end a few milliseconds past the last frame is capped to the audio", () => {
    const words = timings("ab", evenly(["a", "b"], 0.52), 1.03)
    expect(words).toEqual([{ word: "ab", start: 0, end: 1.03 }])
  })

  it("arrays of different lengths are unreadable", () => {
    expect(problemOf("ab", { ...evenly(["a", "b"]), character_end_times_seconds: [0.1] })).toBe(
      "the alignment's arrays differ in length (2 characters, 2 starts, 1 ends)"
    )
  })

  it("characters that are not the text sent are unreadable", () => {
    expect(problemOf("forty two", evenly(Array.from("42 two")))).toBe("the alignment's characters are not the text sent")
    expect(problemOf("a b", evenly(Array.from("a  b")))).toBe("the alignment's characters are not the text sent")
  })

  it("a time that is not a number, or negative, is unreadable", () => {
    const base = evenly(["a", "b"])
    expect(problemOf("ab", { ...base, character_start_times_seconds: [0, Number.NaN] })).toBe("character 2 of the alignment has no usable time")
    expect(problemOf("ab", { ...base, character_end_times_seconds: [Number.POSITIVE_INFINITY, 0.2] })).toBe(
      "character 1 of the alignment has no usable time"
    )
    expect(problemOf("ab", { ...base, character_start_times_seconds: [-0.1, 0.1] })).toBe("character 1 of the alignment has no usable time")
  })

  it("a character ending before it starts is unreadable", () => {
    expect(problemOf("ab", { ...evenly(["a", "b"]), character_end_times_seconds: [0.1, 0.05] })).toBe(
      "character 2 of the alignment ends before it starts"
    )
  })

  it("times going backwards are unreadable", () => {
    expect(problemOf("abc", { ...evenly(["a", "b", "c"]), character_start_times_seconds: [0, 0.2, 0.1] })).toBe(
      "character 3 of the alignment starts before the one before it"
    )
  })

  it("a character ending well past the audio is unreadable", () => {
    expect(problemOf("abc", evenly(["a", "b", "c"], 1), 2)).toBe(
      "character 3 of the alignment ends at 3 s, after the audio (2.000 s)"
    )
  })

  it("every result passes the domain's timing rule", () => {
    const text = "Wear gloves — always. It's 42°C & humid <today> 😀!"
    const words = timings(text, evenly(Array.from(text), 0.05), 3)
    expect(wordTimingsProblem(text, words, 3)).toBeUndefined()
  })
})
