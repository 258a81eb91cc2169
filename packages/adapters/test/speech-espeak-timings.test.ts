import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { wordTimingsProblem } from "@tks/domain/narration"
import { type EngineEvent, engineTextOf, wordTimingsFromEvents } from "@tks/adapters/speech/espeak-timings"

const word = (textPosition: number, audioMs: number): EngineEvent => ({ type: "word", textPosition, audioMs })
const end = (textPosition: number, audioMs: number): EngineEvent => ({ type: "end", textPosition, audioMs })

const audio = { speechMs: 3_000, offsetSeconds: 0, durationSeconds: 3.5 }

const timings = (text: string, events: ReadonlyArray<EngineEvent>, on = audio) =>
  Either.getOrThrowWith(wordTimingsFromEvents(text, events, on), (problem) => new Error(problem))

const problemOf = (text: string, events: ReadonlyArray<EngineEvent>, on = audio) =>
  Either.match(wordTimingsFromEvents(text, events, on), { onLeft: (problem) => problem, onRight: () => "no problem" })

describe("eSpeak word events -> word timings (one timing per whitespace-delimited run, as sent)", () => {
  it("the engine text escapes &, < and > for its SSML reader, and places each run in its code points", () => {
    const placed = engineTextOf("Tom & Jerry <3 😀 a>b")
    expect(placed.text).toBe("Tom &amp; Jerry &lt;3 😀 a&gt;b")
    expect(placed.runs).toEqual([
      { word: "Tom", start: 0, end: 3 },
      { word: "&", start: 4, end: 9 },
      { word: "Jerry", start: 10, end: 15 },
      { word: "<3", start: 16, end: 21 },
      // The emoji is two UTF-16 units but one code point, as the engine counts.
      { word: "😀", start: 22, end: 23 },
      { word: "a>b", start: 24, end: 30 }
    ])
  })

  it("a run lasts from its word event to the next event (the next run's word, or a clause end)", () => {
    // As eSpeak reports "Hello, world!": positions are 1-based.
    const words = timings("Hello, world!", [word(1, 0), end(7, 589), word(8, 589), end(14, 1369)])
    expect(words).toEqual([
      { word: "Hello,", start: 0, end: 0.589 },
      { word: "world!", start: 0.589, end: 1.369 }
    ])
  })

  it("times are moved by the encoder's delay (where the speech starts in the MP3)", () => {
    const words = timings("Hello", [word(1, 0), end(6, 500)], { ...audio, offsetSeconds: 0.025 })
    expect(words).toEqual([{ word: "Hello", start: 0.025, end: 0.525 }])
  })

  it("a number spoken as several words (42 -> forty two, 3:45pm -> three forty five p m) is one run, digits kept", () => {
    const text = "at 42 and 3:45pm ok"
    const words = timings(text, [
      word(1, 0),
      word(4, 200), // forty
      word(5, 450), // two
      word(7, 700),
      word(11, 900), // three
      word(13, 1100), // forty
      word(14, 1300), // five
      word(15, 1500), // p m
      word(18, 1800),
      end(20, 2000)
    ])
    expect(words.map((w) => [w.word, w.start, w.end])).toEqual([
      ["at", 0, 0.2],
      ["42", 0.2, 0.7],
      ["and", 0.7, 0.9],
      ["3:45pm", 0.9, 1.8],
      ["ok", 1.8, 2]
    ])
  })

  it("a word event pointing at the space after a run (an emoji read as two words) belongs to that run", () => {
    const words = timings("hi 😀 there", [word(1, 0), word(4, 300), word(5, 600), word(6, 900), end(11, 1200)])
    expect(words).toEqual([
      { word: "hi", start: 0, end: 0.3 },
      { word: "😀", start: 0.3, end: 0.9 },
      { word: "there", start: 0.9, end: 1.2 }
    ])
  })

  it("an escaped character's word event (at its entity) belongs to its run", () => {
    // Engine text "Tom &amp; Jerry": "and" is reported on the entity.
    const words = timings("Tom & Jerry", [word(1, 0), word(9, 400), word(11, 600), end(16, 1000)])
    expect(words.map((w) => w.start)).toEqual([0, 0.4, 0.6])
  })

  it("a run without word events (a dash) gets a zero-length span where the run before it ended", () => {
    const words = timings("wait — now", [word(1, 0), end(5, 400), word(8, 500), end(11, 900)])
    expect(words).toEqual([
      { word: "wait", start: 0, end: 0.4 },
      { word: "—", start: 0.4, end: 0.4 },
      { word: "now", start: 0.5, end: 0.9 }
    ])
  })

  it("a first run without word events sits at the start of the speech", () => {
    const words = timings("— go", [word(3, 100), end(5, 400)], { ...audio, offsetSeconds: 0.025 })
    expect(words).toEqual([
      { word: "—", start: 0.025, end: 0.025 },
      { word: "go", start: 0.125, end: 0.425 }
    ])
  })

  it("punctuation alone (no word events at all) gives zero-length spans, not a failure", () => {
    expect(timings("— …", [end(1, 6)])).toEqual([
      { word: "—", start: 0, end: 0 },
      { word: "…", start: 0, end: 0 }
    ])
  })

  it("the last run, with no event after it, ends where the speech ends", () => {
    expect(timings("one two", [word(1, 0), word(5, 400)])).toEqual([
      { word: "one", start: 0, end: 0.4 },
      { word: "two", start: 0.4, end: 3 }
    ])
  })

  it("events past the end of the audio are capped to it", () => {
    const on = { speechMs: 2_000, offsetSeconds: 0.025, durationSeconds: 1.5 }
    const text = "late words here"
    const words = timings(text, [word(1, 1000), word(6, 1600), word(12, 1900), end(16, 2000)], on)
    expect(words).toEqual([
      { word: "late", start: 1.025, end: 1.5 },
      { word: "words", start: 1.5, end: 1.5 },
      { word: "here", start: 1.5, end: 1.5 }
    ])
    expect(wordTimingsProblem(text, words, on.durationSeconds)).toBeUndefined()
  })

  it("word events out of run order never make a start go back", () => {
    const text = "a b c"
    // "c" is reported before "b".
    const words = timings(text, [word(1, 0), word(5, 300), word(3, 600), end(6, 900)])
    expect(wordTimingsProblem(text, words, audio.durationSeconds)).toBeUndefined()
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.start)
  })

  it("audio positions going backwards are unreadable", () => {
    expect(problemOf("a b", [word(1, 500), word(3, 100)])).toBe("the engine's audio positions go backwards")
  })

  it("an event without a usable position is unreadable", () => {
    expect(problemOf("a b", [word(1, 0), word(3, Number.NaN)])).toBe("the engine reported an event without a usable position")
    expect(problemOf("a b", [word(1, -5)])).toBe("the engine reported an event without a usable position")
    expect(problemOf("a b", [word(Number.POSITIVE_INFINITY, 0)])).toBe("the engine reported an event without a usable position")
  })

  it("no word events for a text with letters or digits is unreadable", () => {
    expect(problemOf("Hello there", [end(12, 900)])).toBe("the engine reported no words for a text with letters or digits")
    expect(problemOf("42", [])).toBe("the engine reported no words for a text with letters or digits")
  })

  it("every result passes the domain's timing rule", () => {
    const text = "One, two; 3 — four. Fünf 😀 six & <seven>"
    const events = [word(1, 0), word(6, 250), word(11, 500), end(13, 700), word(15, 800), word(21, 1000), word(26, 1300), word(28, 1500), word(30, 1700), word(36, 1900), end(44, 2400)]
    const words = timings(text, events)
    expect(words.map((w) => w.word)).toEqual(["One,", "two;", "3", "—", "four.", "Fünf", "😀", "six", "&", "<seven>"])
    expect(wordTimingsProblem(text, words, audio.durationSeconds)).toBeUndefined()
  })
})
