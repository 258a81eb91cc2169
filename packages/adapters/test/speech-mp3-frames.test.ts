import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { readMp3Frames } from "@tks/adapters/speech/mp3-frames"
import { encodeMp3, tone } from "./support/mp3.js"

const frames = (bytes: Uint8Array) => Either.getOrThrowWith(readMp3Frames(bytes), (problem) => new Error(problem))
const problemOf = (bytes: Uint8Array) => Either.match(readMp3Frames(bytes), { onLeft: (problem) => problem, onRight: () => "no problem" })

const concat = (...parts: ReadonlyArray<Uint8Array>) => {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    all.set(part, at)
    at += part.length
  }
  return all
}

/** An ID3v2.4 tag whose body is `size` zero bytes (the size is written 7 bits a byte). */
const id3v2 = (size: number) =>
  concat(
    new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]),
    new Uint8Array(size)
  )

const oneSecond = Effect.promise(() => encodeMp3(tone(1)))

describe("MP3 frames (narration audio is MPEG-1 Layer III, 44.1 kHz, 128 kbps; its length is read from its frames)", () => {
  it.effect("LAME's 128 kbps 44.1 kHz output is a run of MPEG-1 Layer III frames whose count gives the duration", () =>
    Effect.gen(function*() {
      const mp3 = yield* oneSecond
      const read = frames(mp3)
      expect(read).toMatchObject({ version: "MPEG-1", layer: 3, sampleRate: 44_100, bitrateKbps: 128, channelMode: "mono" })
      // 417 or 418 bytes a frame (padding), 1152 samples each.
      expect(read.frames).toBe(Math.round(mp3.length / (144 * 128_000 / 44_100)))
      expect(read.durationSeconds).toBeCloseTo(read.frames * 1152 / 44_100, 9)
      expect(read.durationSeconds).toBeGreaterThanOrEqual(1)
      expect(read.durationSeconds).toBeLessThan(1.1)
    }))

  it.effect("an ID3v2 tag before the frames and an ID3v1 tag after them are skipped", () =>
    Effect.gen(function*() {
      const mp3 = yield* oneSecond
      const id3v1 = concat(new TextEncoder().encode("TAG"), new Uint8Array(125))
      expect(frames(concat(id3v2(300), mp3, id3v1))).toEqual(frames(mp3))
    }))

  it.effect("a first frame that is a Xing/Info header is allowed and not counted as audio", () =>
    Effect.gen(function*() {
      const mp3 = yield* oneSecond
      const withInfo = mp3.slice()
      // Mono MPEG-1: the tag follows the 4-byte header and 17 bytes of side information.
      withInfo.set(new TextEncoder().encode("Info"), 4 + 17)
      expect(frames(withInfo).frames).toBe(frames(mp3).frames - 1)
    }))

  it("an empty buffer is not audio", () => {
    expect(problemOf(new Uint8Array())).toBe("the audio is empty")
  })

  it.effect("a truncated file (its last frame cut short) is refused", () =>
    Effect.gen(function*() {
      const mp3 = yield* oneSecond
      expect(problemOf(mp3.subarray(0, mp3.length - 100))).toMatch(/^the audio is cut short: its last frame has \d+ of 41[78] bytes$/)
    }))

  it.effect("garbage, alone or between frames, is refused", () =>
    Effect.gen(function*() {
      const mp3 = yield* oneSecond
      expect(problemOf(new TextEncoder().encode("<html>Service Unavailable</html>"))).toBe(
        "the audio is not a run of MPEG frames: no frame header at byte 0"
      )
      const spliced = concat(mp3.subarray(0, 418 * 3), new Uint8Array([1, 2, 3]), mp3.subarray(418 * 3))
      expect(problemOf(spliced)).toMatch(/^the audio is not a run of MPEG frames: no frame header at byte \d+$/)
      expect(problemOf(id3v2(64))).toBe("the audio has no MPEG audio frames")
      expect(problemOf(id3v2(64).subarray(0, 40))).toBe("the audio's ID3 tag runs past its end")
    }))

  it.effect("an MPEG-2 (22.05 kHz) file is refused, naming what it is", () =>
    Effect.gen(function*() {
      const mp3 = yield* Effect.promise(() => encodeMp3(tone(1, 22_050), { sampleRate: 22_050, bitrate: 64, outputSampleRate: 22_050 }))
      expect(problemOf(mp3)).toBe("frame 1 is MPEG-2 Layer III at 22050 Hz, 64 kbps; expected MPEG-1 Layer III at 44100 Hz, 128 kbps")
    }))

  it.effect("a 64 kbps file is refused, naming its bitrate", () =>
    Effect.gen(function*() {
      const mp3 = yield* Effect.promise(() => encodeMp3(tone(1), { bitrate: 64 }))
      expect(problemOf(mp3)).toBe("frame 1 is MPEG-1 Layer III at 44100 Hz, 64 kbps; expected MPEG-1 Layer III at 44100 Hz, 128 kbps")
    }))

  it.effect("one odd frame among good ones is refused", () =>
    Effect.gen(function*() {
      const mp3 = yield* oneSecond
      const low = yield* Effect.promise(() => encodeMp3(tone(0.2), { bitrate: 64 }))
      expect(problemOf(concat(mp3, low))).toMatch(/^frame \d+ is MPEG-1 Layer III at 44100 Hz, 64 kbps/)
    }))
})
