import { Either } from "effect"

/**
 * Reads an MP3 file's frames (narration audio is MPEG-1 Layer III,
 * 44.1 kHz, 128 kbps). Both speech adapters hold their audio to it and take
 * the audio's length from it, so a caller never gets a file a player would
 * reject or a duration that disagrees with what plays.
 */

type MpegVersion = "MPEG-1" | "MPEG-2" | "MPEG-2.5"
type ChannelMode = "stereo" | "joint stereo" | "dual channel" | "mono"

export interface FrameHeader {
  readonly version: MpegVersion
  readonly layer: 1 | 2 | 3
  readonly bitrateKbps: number
  readonly sampleRate: number
  readonly padding: boolean
  readonly protected: boolean
  readonly channelMode: ChannelMode
  /** Bytes, header included. */
  readonly length: number
  /** PCM samples per channel the frame decodes to. */
  readonly samples: number
}

interface Mp3Frames {
  /** Audio frames; a Xing/Info frame (no audio) is not counted. */
  readonly frames: number
  readonly durationSeconds: number
  readonly sampleRate: number
  readonly bitrateKbps: number
  readonly version: MpegVersion
  readonly layer: 1 | 2 | 3
  readonly channelMode: ChannelMode
}

/** What every frame of narration audio must be. */
const narrationMp3Format = { version: "MPEG-1", layer: 3, sampleRate: 44_100, bitrateKbps: 128 } as const

const versions: ReadonlyArray<MpegVersion | undefined> = ["MPEG-2.5", undefined, "MPEG-2", "MPEG-1"]
const layers: ReadonlyArray<1 | 2 | 3 | undefined> = [undefined, 3, 2, 1]
const channelModes: ReadonlyArray<ChannelMode> = ["stereo", "joint stereo", "dual channel", "mono"]
const sampleRates: Record<MpegVersion, ReadonlyArray<number>> = {
  "MPEG-1": [44_100, 48_000, 32_000],
  "MPEG-2": [22_050, 24_000, 16_000],
  "MPEG-2.5": [11_025, 12_000, 8_000]
}
// Index 0 is "free format" and 15 is invalid: neither is accepted.
const bitrates = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
} as const

const bitrateTable = (version: MpegVersion, layer: 1 | 2 | 3): ReadonlyArray<number> =>
  version === "MPEG-1"
    ? (layer === 1 ? bitrates.v1l1 : layer === 2 ? bitrates.v1l2 : bitrates.v1l3)
    : (layer === 1 ? bitrates.v2l1 : bitrates.v2l23)

/** The frame header at `offset`, or why there is none. */
export const frameHeaderAt = (bytes: Uint8Array, offset: number): FrameHeader | string => {
  if (offset + 4 > bytes.length) return `no frame header at byte ${offset} (the file ends)`
  const b1 = bytes[offset + 1]!
  const b2 = bytes[offset + 2]!
  const b3 = bytes[offset + 3]!
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return `no frame header at byte ${offset}`
  const version = versions[(b1 >> 3) & 3]
  const layer = layers[(b1 >> 1) & 3]
  if (version === undefined || layer === undefined) return `the frame at byte ${offset} has a reserved version or layer`
  const bitrateKbps = bitrateTable(version, layer)[b2 >> 4] ?? 0
  const sampleRate = sampleRates[version][(b2 >> 2) & 3]
  if (bitrateKbps === 0 || sampleRate === undefined) {
    return `the frame at byte ${offset} has a free-format or reserved bitrate or sample rate`
  }
  const padding = (b2 & 2) !== 0
  const samples = layer === 1 ? 384 : layer === 3 && version !== "MPEG-1" ? 576 : 1152
  const length = layer === 1
    ? (Math.floor(12_000 * bitrateKbps / sampleRate) + (padding ? 1 : 0)) * 4
    : Math.floor(samples / 8 * 1000 * bitrateKbps / sampleRate) + (padding ? 1 : 0)
  return {
    version,
    layer,
    bitrateKbps,
    sampleRate,
    padding,
    protected: (b1 & 1) === 0,
    channelMode: channelModes[b3 >> 6]!,
    length,
    samples
  }
}

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length))

/** Bytes of an ID3v2 tag at the start (header, body and footer), or 0. */
const id3v2Length = (bytes: Uint8Array): number => {
  if (bytes.length < 10 || ascii(bytes, 0, 3) !== "ID3") return 0
  // The size is "syncsafe": four 7-bit bytes.
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f)
  const footer = (bytes[5]! & 0x10) !== 0 ? 10 : 0
  return 10 + size + footer
}

/** A Xing/Info (LAME) or VBRI (Fraunhofer) frame: it describes the file and holds no audio. */
const isInfoFrame = (bytes: Uint8Array, offset: number, header: FrameHeader): boolean => {
  const sideInfo = header.version === "MPEG-1"
    ? (header.channelMode === "mono" ? 17 : 32)
    : (header.channelMode === "mono" ? 9 : 17)
  const xingAt = offset + 4 + (header.protected ? 2 : 0) + sideInfo
  const tag = ascii(bytes, xingAt, 4)
  return tag === "Xing" || tag === "Info" || ascii(bytes, offset + 36, 4) === "VBRI"
}

const describe = (header: FrameHeader) =>
  `${header.version} Layer ${"I".repeat(header.layer)} at ${header.sampleRate} Hz, ${header.bitrateKbps} kbps`

const isNarrationFormat = (header: FrameHeader) =>
  header.version === narrationMp3Format.version &&
  header.layer === narrationMp3Format.layer &&
  header.sampleRate === narrationMp3Format.sampleRate &&
  header.bitrateKbps === narrationMp3Format.bitrateKbps

/**
 * The file's frames, or why it is not narration audio: empty, cut short,
 * something other than frames between them, or any frame not MPEG-1 Layer III
 * at 44.1 kHz and 128 kbps. An ID3v2 tag at the start, an ID3v1 tag at the end
 * and a Xing/Info frame are allowed.
 */
export const readMp3Frames = (bytes: Uint8Array): Either.Either<Mp3Frames, string> => {
  if (bytes.length === 0) return Either.left("the audio is empty")
  let offset = id3v2Length(bytes)
  if (offset > bytes.length) return Either.left("the audio's ID3 tag runs past its end")
  // An ID3v1 tag is the last 128 bytes, starting "TAG".
  const end = bytes.length >= 128 && ascii(bytes, bytes.length - 128, 3) === "TAG" ? bytes.length - 128 : bytes.length
  let frames = 0
  let seen = 0
  let first: FrameHeader | undefined
  while (offset < end) {
    const header = frameHeaderAt(bytes, offset)
    if (typeof header === "string") return Either.left(`the audio is not a run of MPEG frames: ${header}`)
    if (!isNarrationFormat(header)) {
      return Either.left(
        `frame ${seen + 1} is ${describe(header)}; expected MPEG-1 Layer III at 44100 Hz, 128 kbps`
      )
    }
    if (offset + header.length > end) {
      return Either.left(`the audio is cut short: its last frame has ${end - offset} of ${header.length} bytes`)
    }
    // Only the first frame may be a Xing/Info frame; it is not audio.
    if (seen > 0 || !isInfoFrame(bytes, offset, header)) {
      first ??= header
      frames++
    }
    seen++
    offset += header.length
  }
  if (first === undefined) return Either.left("the audio has no MPEG audio frames")
  return Either.right({
    frames,
    durationSeconds: frames * first.samples / first.sampleRate,
    sampleRate: first.sampleRate,
    bitrateKbps: first.bitrateKbps,
    version: first.version,
    layer: first.layer,
    channelMode: first.channelMode
  })
}
