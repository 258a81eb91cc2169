import { Effect, Layer } from "effect"
import { type Speech, SpeechFailed, SpeechSynthesizer, SpeechTimingsUnreadable } from "@tks/adapters/speech/port"
import { wordRuns } from "@tks/domain/narration"

/**
 * A stand-in speech provider whose behaviour the text decides, so tests of
 * the allowance can drive every ending (the real engines are tested in
 * packages/adapters/test/speech-*):
 * - `[fail]` in the text: no audio (SpeechFailed), so the reservation is given back;
 * - `[unreadable]`: audio whose timings the adapter cannot read (SpeechTimingsUnreadable);
 * - `[backwards]`: audio with timings that go back in time, which the adapter
 *   did not notice, so the service's own check must;
 * - `[hang]`: never answers (timeouts, callers going away);
 * - anything else: 0.25 s per word, evenly spaced, in bytes that are not real MP3.
 * `calls` counts the texts it was asked to speak.
 */
export const scriptedSpeech = () => {
  const calls: Array<string> = []
  const layer = Layer.succeed(SpeechSynthesizer, {
    provider: "scripted",
    synthesize: ({ text }) =>
      Effect.suspend((): Effect.Effect<Speech, SpeechFailed | SpeechTimingsUnreadable> => {
        calls.push(text)
        if (text.includes("[fail]")) return Effect.fail(new SpeechFailed({ reason: "scripted: no audio" }))
        if (text.includes("[unreadable]")) return Effect.fail(new SpeechTimingsUnreadable({ reason: "scripted: no alignment" }))
        if (text.includes("[hang]")) return Effect.never
        const runs = wordRuns(text)
        const words = runs.map((run, i) => ({ word: run.word, start: i * 0.25, end: i * 0.25 + 0.2 }))
        if (text.includes("[backwards]") && words.length > 1) words[words.length - 1] = { ...words.at(-1)!, start: 0, end: 0.1 }
        return Effect.succeed({ mp3: new Uint8Array([0xff, 0xfb, 0x90, 0xc4]), durationSeconds: runs.length * 0.25, words })
      })
  })
  return { layer, calls }
}
