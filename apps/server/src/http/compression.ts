import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { HttpBody, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { varyWith } from "./vary.js"

/**
 * gzip or brotli, chosen by Accept-Encoding, for JSON and HTML bodies of
 * 1 KB or more (the /docs page is 3.3 MB: about 0.8 MB as brotli).
 *
 * Bodies up to 256 KB compress inline at the fastest settings (a 12 KB
 * page: ~50 us). Larger ones go to the thread pool and are cached by body:
 * the docs page and the OpenAPI document are one body built once, so they
 * are compressed once, the HTML at high settings.
 */
export type Encoding = "br" | "gzip"

const MIN_BYTES = 1024
const INLINE_MAX_BYTES = 256 * 1024
const COMPRESSIBLE = /^(?:application\/(?:[\w.+-]*\+)?json|text\/html)\b/i

/** The encoding to use for an Accept-Encoding header: the highest q-value, brotli on a tie. */
export const chooseEncoding = (acceptEncoding: string | undefined): Encoding | undefined => {
  if (acceptEncoding === undefined || acceptEncoding === "") return undefined
  let br = -1
  let gzip = -1
  let star = -1
  for (const part of acceptEncoding.split(",")) {
    const [rawName, ...params] = part.split(";")
    const name = rawName!.trim().toLowerCase()
    let q = 1
    for (const param of params) {
      const [key, value] = param.split("=")
      if (key?.trim().toLowerCase() === "q") q = Number(value?.trim() ?? "")
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) continue
    if (name === "br") br = q
    else if (name === "gzip" || name === "x-gzip") gzip = q
    else if (name === "*") star = q
  }
  if (br === -1) br = star
  if (gzip === -1) gzip = star
  if (br <= 0 && gzip <= 0) return undefined
  return br >= gzip ? "br" : "gzip"
}

// Dynamic JSON: the fastest settings, a small window. A 2 KB page costs
// ~20 us and shrinks to a quarter; higher levels cost 3x for ~15% less.
const fast = {
  br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
  gzip: { level: 1 }
} as const
// Bodies built once (the docs page): compressed once, so worth the time.
const thorough = {
  br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } },
  gzip: { level: 9 }
} as const

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

const compressInline = (encoding: Encoding, body: Uint8Array): Uint8Array =>
  encoding === "br" ? zlib.brotliCompressSync(body, fast.br) : zlib.gzipSync(body, fast.gzip)

// Keyed by the body itself: a body built once (docs, OpenAPI) is compressed once.
const cache = new WeakMap<Uint8Array, Map<Encoding, Promise<Uint8Array>>>()

const compressCached = (encoding: Encoding, body: Uint8Array, html: boolean): Promise<Uint8Array> => {
  let byEncoding = cache.get(body)
  if (byEncoding === undefined) cache.set(body, byEncoding = new Map())
  let result = byEncoding.get(encoding)
  if (result === undefined) {
    const settings = html ? thorough : fast
    result = encoding === "br" ? brotli(body, settings.br) : gzip(body, settings.gzip)
    byEncoding.set(encoding, result)
    result.catch(() => byEncoding.delete(encoding))
  }
  return result
}

/** The response compressed for `encoding` when it is worth it (the caller accepts it, the body is JSON or HTML of 1 KB or more). */
export const compress = (
  response: HttpServerResponse.HttpServerResponse,
  encoding: Encoding | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const body = response.body
  if (body._tag !== "Uint8Array" || response.headers["content-encoding"] !== undefined) return Effect.succeed(response)
  if (body.body.length < MIN_BYTES || !COMPRESSIBLE.test(body.contentType)) return Effect.succeed(response)
  const vary = varyWith(response, "Accept-Encoding")
  if (encoding === undefined) return Effect.succeed(HttpServerResponse.setHeader(response, "vary", vary))
  const finish = (compressed: Uint8Array) =>
    HttpServerResponse.setHeaders(
      HttpServerResponse.setBody(response, HttpBody.uint8Array(compressed, body.contentType)),
      { "content-encoding": encoding, vary }
    )
  if (body.body.length <= INLINE_MAX_BYTES) return Effect.sync(() => finish(compressInline(encoding, body.body)))
  const html = body.contentType.startsWith("text/html")
  return Effect.map(Effect.promise(() => compressCached(encoding, body.body, html)), finish)
}
