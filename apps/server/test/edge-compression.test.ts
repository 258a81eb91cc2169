import { request } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { HttpServer } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { chooseEncoding } from "../src/http/compression.js"
import { probeServer } from "./support/edge-probe.js"

/** A GET whose body is read as sent (fetch would decompress it). */
const getBytes = (path: string, acceptEncoding?: string) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    return yield* Effect.promise(() =>
      new Promise<{ status: number; headers: Record<string, string | Array<string> | undefined>; body: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding }
        request({ host: "127.0.0.1", port: address.port, path, headers }, (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
        }).on("error", reject).end()
      })
    )
  })

describe("Accept-Encoding", () => {
  it("the highest q-value wins, brotli on a tie; q=0 and unknown encodings are refused", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br")
    expect(chooseEncoding("gzip")).toBe("gzip")
    expect(chooseEncoding("br;q=0.5, gzip;q=0.9")).toBe("gzip")
    expect(chooseEncoding("br;q=0, gzip;q=0")).toBeUndefined()
    expect(chooseEncoding("identity")).toBeUndefined()
    expect(chooseEncoding("*")).toBe("br")
    expect(chooseEncoding("*;q=0.1, gzip;q=0.5")).toBe("gzip")
    expect(chooseEncoding(undefined)).toBeUndefined()
  })
})

layer(probeServer(), { excludeTestServices: true })("compression (node:zlib)", (it) => {
  it.effect("a JSON response over 1 KB is brotli or gzip as the caller accepts, with Vary: Accept-Encoding", () =>
    Effect.gen(function*() {
      const plain = yield* getBytes("/probe/items?n=100")
      expect(plain.headers["content-encoding"]).toBeUndefined()
      expect(plain.headers.vary).toContain("Accept-Encoding")
      const expected = JSON.parse(plain.body.toString("utf8"))

      const br = yield* getBytes("/probe/items?n=100", "gzip, br")
      expect(br.headers["content-encoding"]).toBe("br")
      expect(br.headers.vary).toContain("Accept-Encoding")
      expect(br.body.length).toBeLessThan(plain.body.length / 3)
      expect(JSON.parse(brotliDecompressSync(br.body).toString("utf8"))).toEqual(expected)

      const gzip = yield* getBytes("/probe/items?n=100", "gzip")
      expect(gzip.headers["content-encoding"]).toBe("gzip")
      expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length)
      expect(JSON.parse(gunzipSync(gzip.body).toString("utf8"))).toEqual(expected)
    }))

  it.effect("a response under 1 KB is sent as it is", () =>
    Effect.gen(function*() {
      const small = yield* getBytes("/probe/items?n=2", "gzip, br")
      expect(small.headers["content-encoding"]).toBeUndefined()
      expect(JSON.parse(small.body.toString("utf8")).data).toHaveLength(2)
    }))

  it.effect("the docs page (megabytes of HTML) is compressed, the same bytes on a second request", () =>
    Effect.gen(function*() {
      const plain = yield* getBytes("/docs")
      expect(plain.body.length).toBeGreaterThan(1_000_000)
      const first = yield* getBytes("/docs", "br")
      expect(first.headers["content-encoding"]).toBe("br")
      expect(first.body.length).toBeLessThan(plain.body.length / 3)
      expect(brotliDecompressSync(first.body).equals(plain.body)).toBe(true)
      const second = yield* getBytes("/docs", "br")
      expect(second.body.equals(first.body)).toBe(true)
      const gzip = yield* getBytes("/docs", "gzip")
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true)
    }), 60_000)

  it.effect("a 404 for a 2 KB path quotes it short: a small answer, sent as it is, with its requestId", () =>
    Effect.gen(function*() {
      const response = yield* getBytes(`/nowhere/${"p".repeat(2_000)}?${"q".repeat(100)}`, "gzip")
      expect(response.status).toBe(404)
      expect(response.headers["content-encoding"]).toBeUndefined()
      expect(JSON.parse(response.body.toString("utf8"))).toMatchObject({ code: "NOT_FOUND", requestId: expect.any(String) })
    }))
})
