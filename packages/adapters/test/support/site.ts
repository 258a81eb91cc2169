import { gzipSync } from "node:zlib"
import type { Handler } from "./loopback-server.js"

/**
 * The loopback "public" site the SSRF corpus and the limit cases run against:
 * a readable page, redirects anywhere (`/redirect?to=...&status=...`), chains
 * of redirects, and responses that break each cap.
 */

export const articleHtml = (title: string, body: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body><nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<article><h1>${title}</h1><p>${body}</p></article>
<footer>Footer links and copyright</footer></body></html>`

const okPage = articleHtml("A public page", "Public pages are fetched and read. ".repeat(20))

const html = (status: number, content: string): Handler => (_request, response) => {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(content)
}

const redirect: Handler = (_request, response, url) => {
  const status = Number(url.searchParams.get("status") ?? "302")
  const to = url.searchParams.get("to")
  response.writeHead(status, to === null ? {} : { location: to }).end()
}

/** `/chain?n=3` redirects to `/chain?n=2` ... and `/chain?n=0` is the page: n redirects in all. */
const chain: Handler = (_request, response, url) => {
  const n = Number(url.searchParams.get("n") ?? "0")
  if (n <= 0) return html(200, okPage)(_request, response, url)
  response.writeHead(302, { location: `/chain?n=${n - 1}` }).end()
}

/** A body of `size` bytes (default 20 000), announced or streamed in chunks. */
const big = (announce: boolean): Handler => (_request, response, url) => {
  const size = Number(url.searchParams.get("size") ?? "20000")
  const headers: Record<string, string | number> = { "content-type": "text/plain" }
  if (announce) headers["content-length"] = size
  response.writeHead(200, headers)
  for (let sent = 0; sent < size; sent += 1000) response.write("x".repeat(Math.min(1000, size - sent)))
  response.end()
}

/** One megabyte of text that gzip shrinks to about a kilobyte. */
const bomb: Handler = (_request, response) => {
  const body = gzipSync(Buffer.alloc(1024 * 1024, "a"))
  response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip", "content-length": body.length }).end(body)
}

const typed: Handler = (_request, response, url) => {
  response.writeHead(200, { "content-type": url.searchParams.get("type") ?? "" }).end("some bytes")
}

export const siteRoutes: Record<string, Handler> = {
  "/ok": html(200, okPage),
  "/redirect": redirect,
  "/chain": chain,
  "/status": (request, response, url) => html(Number(url.searchParams.get("code") ?? "500"), "<p>no</p>")(request, response, url),
  "/big": big(true),
  "/big-chunked": big(false),
  "/bomb": bomb,
  "/typed": typed,
  "/untyped": (_request, response) => {
    response.writeHead(200, {}).end(Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]))
  },
  "/encoded": (_request, response, url) => {
    response.writeHead(200, { "content-type": "text/plain", "content-encoding": url.searchParams.get("coding") ?? "" }).end("abc")
  },
  // Headers, a first chunk, then nothing: only the total-time cap ends it.
  "/slow-body": (_request, response) => {
    response.writeHead(200, { "content-type": "text/html" })
    response.write("<html><body><p>the start of a page that never ends")
  },
  // No answer at all.
  "/slow-headers": () => {}
}
