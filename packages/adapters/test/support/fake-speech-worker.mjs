// @ts-check
/**
 * A stand-in for src/speech/speech-worker.mjs, same messages, scripted by the
 * text: "crash" exits mid-job, "throw" throws outside any handler, "hang"
 * never answers, "refuse" answers an error, "bad-audio" answers bytes that
 * are not MP3, "silent-words" answers good audio without word events,
 * "die-later" answers and then exits while idle; anything else answers half a
 * second of real MP3 with one word event per run.
 */
import { parentPort } from "node:worker_threads"
import { createMp3Encoder } from "wasm-media-encoders"

if (parentPort === null) throw new Error("a worker thread")
const port = parentPort
const encoder = await createMp3Encoder()

const halfSecond = () => {
  encoder.configure({ sampleRate: 22_050, channels: 1, bitrate: 128, outputSampleRate: 44_100 })
  const pcm = Float32Array.from({ length: 11_025 }, (_, i) => 0.5 * Math.sin(i / 5))
  const body = encoder.encode([pcm]).slice()
  const tail = encoder.finalize().slice()
  const mp3 = new Uint8Array(body.length + tail.length)
  mp3.set(body)
  mp3.set(tail, body.length)
  return mp3
}

const answer = (/** @type {number} */ id, /** @type {Uint8Array} */ mp3, /** @type {Array<object>} */ events) =>
  port.postMessage({ id, ok: true, mp3, events, pcmSamples: 11_025, sampleRate: 22_050, synthMs: 1, encodeMs: 1 }, [mp3.buffer])

port.on("message", (/** @type {{ id: number, text: string, voice: string }} */ job) => {
  switch (job.text) {
    case "crash":
      process.exit(3)
      break
    case "throw":
      setTimeout(() => {
        throw new Error("boom")
      })
      break
    case "hang":
      break
    case "refuse":
      port.postMessage({ id: job.id, ok: false, error: `voice ${job.voice} did not load (status 2)` })
      break
    case "bad-audio":
      answer(job.id, new TextEncoder().encode("not audio at all"), [{ type: "word", textPosition: 1, audioMs: 0 }])
      break
    case "silent-words":
      answer(job.id, halfSecond(), [{ type: "end", textPosition: 1, audioMs: 400 }])
      break
    case "die-later":
      answer(job.id, halfSecond(), [{ type: "word", textPosition: 1, audioMs: 0 }])
      setTimeout(() => process.exit(0), 20)
      break
    default: {
      const events = Array.from(job.text.matchAll(/\S+/g), (match, i) => ({ type: "word", textPosition: match.index + 1, audioMs: i * 50 }))
      answer(job.id, halfSecond(), events)
    }
  }
})

port.postMessage({ ready: true })
