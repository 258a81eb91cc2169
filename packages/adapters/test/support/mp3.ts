import { Either } from "effect"
import { MPEGDecoder } from "mpg123-decoder"
import { createMp3Encoder } from "wasm-media-encoders"
import { frameHeaderAt, readMp3Frames } from "@tks/adapters/speech/mp3-frames"

/**
 * Narration audio as a listener gets it: decoded by a real MP3 decoder
 * (mpg123, WASM), and each frame header read. Shared with the server's
 * contract tests (imported by relative path).
 */

export interface DecodedMp3 {
  readonly sampleRate: number
  readonly channels: number
  readonly decodedSeconds: number
  /** What the decoder could not read; empty for a good file. */
  readonly errors: ReadonlyArray<string>
  /** Root mean square of the decoded samples: about 0 for silence. */
  readonly rms: number
}

export const decodeMp3 = async (bytes: Uint8Array): Promise<DecodedMp3> => {
  const decoder = new MPEGDecoder()
  await decoder.ready
  try {
    const decoded = decoder.decode(bytes)
    let sum = 0
    let count = 0
    for (const channel of decoded.channelData) {
      for (const sample of channel) sum += sample * sample
      count += channel.length
    }
    return {
      sampleRate: decoded.sampleRate,
      channels: decoded.channelData.length,
      decodedSeconds: decoded.sampleRate > 0 ? decoded.samplesDecoded / decoded.sampleRate : 0,
      errors: decoded.errors.map((error) => error.message),
      rms: count > 0 ? Math.sqrt(sum / count) : 0
    }
  } finally {
    decoder.free()
  }
}

/**
 * The median fundamental frequency (Hz) of the voiced parts of an MP3, by
 * autocorrelation over 46 ms frames: about 100 Hz for eSpeak's male voices,
 * 180-220 Hz for its female variants. Speech made twice differs in its bytes,
 * so voices are told apart by how they sound, not by their files.
 */
export const medianPitch = async (bytes: Uint8Array): Promise<number> => {
  const decoder = new MPEGDecoder()
  await decoder.ready
  try {
    const decoded = decoder.decode(bytes)
    // Every other sample: 22,050 Hz is plenty for a voice's pitch, at a quarter of the work.
    const source = decoded.channelData[0] ?? new Float32Array(0)
    const samples = Float32Array.from({ length: Math.floor(source.length / 2) }, (_, i) => source[2 * i]!)
    const rate = decoded.sampleRate / 2
    const size = 1024
    const pitches: Array<number> = []
    for (let start = 0; start + size < samples.length; start += size / 2) {
      let energy = 0
      for (let i = 0; i < size; i++) energy += samples[start + i]! ** 2
      if (energy / size < 1e-3) continue
      let best = 0
      let bestLag = 0
      // 55 Hz to 550 Hz.
      for (let lag = Math.floor(rate / 550); lag < Math.floor(rate / 55); lag++) {
        let sum = 0
        for (let i = 0; i < size - lag; i++) sum += samples[start + i]! * samples[start + i + lag]!
        if (sum > best) {
          best = sum
          bestLag = lag
        }
      }
      if (bestLag > 0) pitches.push(rate / bestLag)
    }
    pitches.sort((a, b) => a - b)
    return pitches[Math.floor(pitches.length / 2)] ?? 0
  } finally {
    decoder.free()
  }
}

/** Each frame header from the start of the file (narration audio has no tags), or the first reason one cannot be read. */
export const frameHeaders = (bytes: Uint8Array) => {
  const headers = []
  let offset = 0
  while (offset < bytes.length) {
    const header = frameHeaderAt(bytes, offset)
    if (typeof header === "string") return { headers, problem: header }
    headers.push(header)
    offset += header.length
  }
  return { headers, problem: undefined }
}

/**
 * Why `bytes` is not narration audio lasting `durationSeconds` (narration
 * audio is MP3, MPEG-1 Layer III, 44.1 kHz, 128 kbps, and not silent), or an empty
 * list. The duration is the one the provider reported.
 */
export const narrationAudioProblems = async (bytes: Uint8Array, durationSeconds: number): Promise<Array<string>> => {
  const problems: Array<string> = []
  const frames = readMp3Frames(bytes)
  if (Either.isLeft(frames)) problems.push(`frames: ${frames.left}`)
  const { headers, problem } = frameHeaders(bytes)
  if (problem !== undefined) problems.push(`frame headers: ${problem}`)
  const odd = headers.filter((header) =>
    header.version !== "MPEG-1" || header.layer !== 3 || header.sampleRate !== 44_100 || header.bitrateKbps !== 128
  )
  if (odd.length > 0) problems.push(`${odd.length} of ${headers.length} frames are not MPEG-1 Layer III, 44.1 kHz, 128 kbps`)
  const decoded = await decodeMp3(bytes)
  if (decoded.sampleRate !== 44_100) problems.push(`decodes at ${decoded.sampleRate} Hz`)
  if (decoded.errors.length > 0) problems.push(`decode errors: ${decoded.errors.join("; ")}`)
  // The decoder may drop a frame's worth at either end.
  if (Math.abs(decoded.decodedSeconds - durationSeconds) > 0.06) {
    problems.push(`decodes to ${decoded.decodedSeconds.toFixed(3)} s, reported ${durationSeconds.toFixed(3)} s`)
  }
  if (decoded.rms < 0.005) problems.push(`silent (rms ${decoded.rms.toFixed(5)})`)
  return problems
}

/** A sine tone, for audio that is not silent. */
export const tone = (seconds: number, sampleRate = 44_100, frequency = 440): Float32Array =>
  Float32Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => 0.5 * Math.sin(2 * Math.PI * frequency * i / sampleRate))

/** `pcm` (mono) as MP3 made by LAME, like the local engine's and ElevenLabs' mp3_44100_128. */
export const encodeMp3 = async (
  pcm: Float32Array,
  options: { readonly sampleRate?: number; readonly bitrate?: 64 | 128; readonly outputSampleRate?: 22_050 | 44_100 } = {}
): Promise<Uint8Array> => {
  const encoder = await createMp3Encoder()
  encoder.configure({
    sampleRate: options.sampleRate ?? 44_100,
    channels: 1,
    bitrate: options.bitrate ?? 128,
    outputSampleRate: options.outputSampleRate ?? 44_100
  })
  const body = encoder.encode([pcm]).slice()
  const tail = encoder.finalize().slice()
  const mp3 = new Uint8Array(body.length + tail.length)
  mp3.set(body)
  mp3.set(tail, body.length)
  return mp3
}
