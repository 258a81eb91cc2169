import { Effect } from "effect"
import type { Dispatcher } from "undici"
import { AddressRefused } from "./connector.js"
import {
  BodyTooLarge,
  decodeContentCoding,
  kindOfMediaType,
  parseContentType,
  type ReadableKind,
  sniffKind
} from "./content-type.js"
import { UnfetchableAddress } from "./port.js"

/** The body of the final response, read under the size cap, with what it is. */
export interface Downloaded {
  readonly url: URL
  readonly kind: ReadableKind
  readonly bytes: Uint8Array
  readonly charset: string | null
}

export const unfetchable = (reason: string) => new UnfetchableAddress({ reason })

const codeOf = (error: Error): string | null =>
  "code" in error && typeof error.code === "string" ? error.code : null

/** A short reason for the log: the guard's refusal when there is one in the cause chain, else the error's code and message. */
export const whyFailed = (error: unknown): string => {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof AddressRefused) return current.message
    current = current.cause
  }
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? error.cause : null
  const root = codeOf(error) === null && cause !== null ? cause : error
  const code = codeOf(root)
  const message = root.message.replace(/\s+/g, " ").trim()
  return code === null ? message : `${code}: ${message}`
}

/** The declared type, judged before the body is read: a type we cannot read is refused without downloading it. */
export const declaredKind = (url: URL, contentType: string | undefined): Effect.Effect<ReadableKind | "unknown", UnfetchableAddress> => {
  const mediaType = parseContentType(contentType)
  const kind = kindOfMediaType(mediaType)
  return kind === null ? Effect.fail(unfetchable(`${url.host}: ${mediaType?.essence} is not a readable type`)) : Effect.succeed(kind)
}

/** The body's kind once read: an untyped body must show a PDF signature or an HTML start. */
export const settledKind = (
  url: URL,
  declared: ReadableKind | "unknown",
  contentType: string | undefined,
  bytes: Uint8Array
): Effect.Effect<Downloaded, UnfetchableAddress> => {
  const kind = declared === "unknown" ? sniffKind(bytes) : declared
  return kind === null
    ? Effect.fail(unfetchable(`${url.host}: the body is not HTML, PDF or text`))
    : Effect.succeed({ url, kind, bytes, charset: parseContentType(contentType)?.charset ?? null })
}

/**
 * The body, aborted as soon as it passes the cap (so a huge or endless body
 * costs at most the cap), then with its content coding undone under the same
 * cap. Interruption (the total-time cap) destroys the stream.
 */
export const readBody = (
  body: Dispatcher.ResponseData["body"],
  maxBytes: number,
  coding: string | undefined
): Effect.Effect<Uint8Array, UnfetchableAddress> =>
  Effect.tryPromise({
    try: async (signal) => {
      signal.addEventListener("abort", () => {
        body.on("error", () => {})
        body.destroy()
      }, { once: true })
      const chunks: Array<Buffer> = []
      let size = 0
      for await (const chunk of body) {
        const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
        size += bytes.length
        if (size > maxBytes) {
          body.destroy()
          throw new BodyTooLarge(`the body is larger than ${maxBytes} bytes`)
        }
        chunks.push(bytes)
      }
      const decoded = decodeContentCoding(Buffer.concat(chunks, size), coding, maxBytes)
      if (decoded === null) throw new Error(`unsupported Content-Encoding ${coding}`)
      return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength)
    },
    catch: (error) => unfetchable(error instanceof BodyTooLarge ? error.message : `reading the body failed: ${whyFailed(error)}`)
  })
