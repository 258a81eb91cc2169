import { request } from "node:http"
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { probeServer } from "./support/edge-probe.js"
import { raw } from "./support/server.js"

const LIMIT = 1024

/**
 * POSTs a body in chunks without Content-Length (chunked transfer encoding)
 * over node:http, which, unlike fetch, reports an answer that arrives while
 * the upload is still going.
 */
const postChunked = (path: string, chunks: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    return yield* Effect.promise(() =>
      new Promise<{ status: number; json: unknown }>((resolve, reject) => {
        const outgoing = request(
          { host: "127.0.0.1", port: address.port, path, method: "POST", headers: { "content-type": "application/json" } },
          (response) => {
            const parts: Array<Buffer> = []
            response.on("data", (part: Buffer) => parts.push(part))
            response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(parts).toString("utf8")) }))
          }
        )
        // The server may close while we still write: that is the point.
        outgoing.on("error", (error) => (error.message.includes("EPIPE") || error.message.includes("ECONNRESET") ? undefined : reject(error)))
        for (const chunk of chunks) outgoing.write(chunk)
        outgoing.end()
      })
    )
  })

layer(probeServer({ BODY_LIMIT_BYTES: String(LIMIT) }), { excludeTestServices: true })("request body size limit", (it) => {
  it.effect("a body whose Content-Length is over BODY_LIMIT_BYTES is 413 PAYLOAD_TOO_LARGE with the JSON body", () =>
    Effect.gen(function*() {
      const response = yield* raw("POST", "/probe/echo", { body: JSON.stringify({ text: "x".repeat(2 * LIMIT) }) })
      expect(response.status).toBe(413)
      expect(response.json).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining(String(LIMIT)) })
      expect(response.json.requestId).toEqual(expect.any(String))
    }))

  it.effect("a body within the limit is read and answered", () =>
    Effect.gen(function*() {
      const response = yield* raw("POST", "/probe/echo", { body: JSON.stringify({ text: "x".repeat(LIMIT - 100) }) })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({ length: LIMIT - 100 })
    }))

  it.effect("a chunked body without Content-Length is cut off at the limit while streaming: 413", () =>
    Effect.gen(function*() {
      const response = yield* postChunked("/probe/echo", ["{\"text\":\"", ...Array.from({ length: 8 }, () => "y".repeat(400)), "\"}"])
      expect(response.status).toBe(413)
      expect(response.json).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
    }))

  it.effect("a small chunked body passes", () =>
    Effect.gen(function*() {
      const response = yield* postChunked("/probe/echo", ["{\"text\":", "\"abc\"}"])
      expect(response).toEqual({ status: 200, json: { length: 3 } })
    }))

  it.effect("a body string with a NUL is refused by its schema: 400 naming the field", () =>
    Effect.gen(function*() {
      const response = yield* raw("POST", "/probe/echo", { body: JSON.stringify({ text: "a\u0000b" }) })
      expect(response.status).toBe(400)
      expect(response.json).toMatchObject({ code: "VALIDATION_ERROR", issues: [{ path: "text" }] })
      expect(response.json.message).toContain("NUL")
    }))
})
