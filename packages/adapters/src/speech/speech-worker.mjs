// @ts-check
/**
 * One speech worker thread: eSpeak-NG (WASM) speaks, LAME (WASM) encodes MP3.
 * Plain JavaScript so it loads the same under vitest, tsx and the esbuild
 * bundle (dist/speech-worker.mjs next to dist/server.mjs). Both engines load
 * once per thread; then each message { id, text, voice } is answered with
 * { id, ok: true, mp3 (transferred), events, pcmSamples, sampleRate, synthMs,
 * encodeMs }
 * or { id, ok: false, error }. The text arrives already escaped for the
 * engine's SSML reader. Nothing here logs the text.
 */
import { parentPort } from "node:worker_threads"
import initEspeak from "@echogarden/espeak-ng-emscripten"
import { createMp3Encoder } from "wasm-media-encoders"

if (parentPort === null) throw new Error("speech-worker.mjs runs as a worker thread")
const port = parentPort

const espeak = await initEspeak()
const engine = new espeak.eSpeakNGWorker()
const encoder = await createMp3Encoder()
/** 16-bit mono at 22,050 Hz for every voice; LAME resamples it to 44.1 kHz. */
const sampleRate = engine.get_samplerate()

/**
 * @param {string} text
 * @param {string} voice
 */
const speak = (text, voice) => {
  const voiceStatus = engine.set_voice(voice)
  if (voiceStatus !== 0) throw new Error(`voice ${voice} did not load (status ${voiceStatus})`)
  /** @type {Array<Int16Array>} */
  const chunks = []
  /** @type {Array<{ type: string, textPosition: number, audioMs: number }>} */
  const events = []
  let pcmSamples = 0
  const synthStarted = performance.now()
  engine.synthesize(text, (/** @type {Int16Array} */ samples, /** @type {Array<any>} */ chunkEvents) => {
    chunks.push(samples)
    pcmSamples += samples.length
    for (const event of chunkEvents) {
      if (event.type === "word" || event.type === "end") {
        events.push({ type: event.type, textPosition: event.text_position, audioMs: event.audio_position })
      }
    }
    // A true answer would stop the synthesis.
    return false
  })
  const encodeStarted = performance.now()
  const pcm = new Float32Array(pcmSamples)
  let at = 0
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) pcm[at++] = chunk[i] / 32_768
  }
  encoder.configure({ sampleRate, channels: 1, bitrate: 128, outputSampleRate: 44_100 })
  // Both answers are views of the encoder's memory, reused by its next call: copy each at once.
  const body = encoder.encode([pcm]).slice()
  const tail = encoder.finalize()
  const mp3 = new Uint8Array(body.length + tail.length)
  mp3.set(body)
  mp3.set(tail, body.length)
  const finished = performance.now()
  return { mp3, events, pcmSamples, sampleRate, synthMs: encodeStarted - synthStarted, encodeMs: finished - encodeStarted }
}

port.on("message", (/** @type {{ id: number, text: string, voice: string }} */ job) => {
  try {
    const answer = speak(job.text, job.voice)
    port.postMessage({ id: job.id, ok: true, ...answer }, [answer.mp3.buffer])
  } catch (error) {
    port.postMessage({ id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) })
  }
})

port.postMessage({ ready: true })
