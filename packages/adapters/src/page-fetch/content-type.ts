import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib"

/**
 * What a response holds and how to read it: the media types a page fetch
 * accepts, the character set its text is in, and the content coding undone
 * (with the size cap applied to the decoded bytes, so a small compressed
 * body cannot expand past it).
 */

export type ReadableKind = "html" | "pdf" | "text"

interface MediaType {
  readonly essence: string
  readonly charset: string | null
}

export const parseContentType = (header: string | undefined): MediaType | null => {
  if (header === undefined || header.trim() === "") return null
  const [essence = "", ...params] = header.split(";")
  const charset = params
    .map((param) => param.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1])
    .find((value) => value !== undefined)
  return { essence: essence.trim().toLowerCase(), charset: charset?.toLowerCase() ?? null }
}

const kindsByEssence: Record<string, ReadableKind> = {
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/pdf": "pdf",
  "text/plain": "text",
  "text/markdown": "text",
  "text/x-markdown": "text"
}

/** The accepted kind a declared media type names; null for any other type. */
export const kindOfMediaType = (mediaType: MediaType | null): ReadableKind | "unknown" | null => {
  if (mediaType === null || mediaType.essence === "application/octet-stream") return "unknown"
  return kindsByEssence[mediaType.essence] ?? null
}

const startsWith = (bytes: Uint8Array, prefix: string) =>
  Buffer.from(bytes.subarray(0, prefix.length)).toString("latin1") === prefix

/** For a body served without a usable type: only a PDF signature or an HTML document start is believed. */
export const sniffKind = (bytes: Uint8Array): ReadableKind | null => {
  if (startsWith(bytes, "%PDF-")) return "pdf"
  const head = Buffer.from(bytes.subarray(0, 512)).toString("latin1").replace(/^\uFEFF|^\xEF\xBB\xBF/, "").trimStart()
  return /^<(!doctype\s+html|html[\s>]|head[\s>])/i.test(head) ? "html" : null
}

/** A `<meta charset>` or `http-equiv` declaration in the first kilobyte of an HTML document. */
export const declaredHtmlCharset = (bytes: Uint8Array): string | null => {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1")
  return head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i)?.[1]?.toLowerCase() ?? null
}

/** Text in the declared character set (UTF-8 when none is declared or the label is unknown); a BOM wins, as in browsers. */
export const decodeText = (bytes: Uint8Array, charset: string | null): string => {
  const label = startsWith(bytes, "\xEF\xBB\xBF") ? "utf-8" : charset ?? "utf-8"
  try {
    return new TextDecoder(label).decode(bytes)
  } catch {
    return new TextDecoder("utf-8").decode(bytes)
  }
}

/** Thrown when the decoded body passes the cap. */
export class BodyTooLarge extends Error {
  override readonly name = "BodyTooLarge"
}

/** The body with its Content-Encoding undone; null when the coding is one we do not read. */
export const decodeContentCoding = (bytes: Buffer, coding: string | undefined, maxBytes: number): Buffer | null => {
  const name = (coding ?? "identity").trim().toLowerCase()
  const options = { maxOutputLength: maxBytes }
  try {
    switch (name) {
      case "":
      case "identity":
        return bytes
      case "gzip":
      case "x-gzip":
        return gunzipSync(bytes, options)
      case "deflate":
        // Zlib-wrapped as the standard says; some servers send raw deflate.
        return bytes[0] !== undefined && (bytes[0] & 0x0f) === 8 ? inflateSync(bytes, options) : inflateRawSync(bytes, options)
      case "br":
        return brotliDecompressSync(bytes, options)
      default:
        return null
    }
  } catch (error) {
    if (error instanceof RangeError) throw new BodyTooLarge(`the decoded body is larger than ${maxBytes} bytes`)
    throw error
  }
}
