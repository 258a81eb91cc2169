import { connect } from "node:net"
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { probeServer } from "./support/edge-probe.js"

/** Writes raw bytes to the server and reads everything it answers until it closes. */
const rawExchange = (request: string) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    return yield* Effect.promise(() =>
      new Promise<string>((resolve) => {
        const socket = connect(address.port, "127.0.0.1")
        const chunks: Array<Buffer> = []
        socket.on("data", (chunk) => chunks.push(chunk))
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")))
        socket.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")))
        socket.write(request)
      })
    )
  })

const parse = (answer: string) => {
  const [head = "", body = ""] = answer.split("\r\n\r\n")
  const [statusLine = "", ...headerLines] = head.split("\r\n")
  const headers = new Map(headerLines.map((line) => {
    const colon = line.indexOf(":")
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const
  }))
  return { status: Number(statusLine.split(" ")[1]), headers, json: JSON.parse(body) }
}

layer(probeServer(), { excludeTestServices: true })("errors Node's parser answers, with the JSON error body", (it) => {
  it.effect("a request line over 16 KB gets 431 with the JSON body", () =>
    Effect.gen(function*() {
      const answer = parse(yield* rawExchange(`GET /probe/items?n=${"1".repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`))
      expect(answer.status).toBe(431)
      expect(answer.headers.get("content-type")).toBe("application/json")
      expect(answer.json).toMatchObject({ code: "REQUEST_HEADER_FIELDS_TOO_LARGE", message: expect.any(String) })
      expect(answer.json.requestId).toBe(answer.headers.get("x-request-id"))
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
    }))

  it.effect("a header block over 16 KB gets 431 with the JSON body", () =>
    Effect.gen(function*() {
      const headers = Array.from({ length: 40 }, (_, i) => `X-Filler-${i}: ${"v".repeat(500)}\r\n`).join("")
      const answer = parse(yield* rawExchange(`GET /probe/items?n=1 HTTP/1.1\r\nHost: x\r\n${headers}\r\n`))
      expect(answer.status).toBe(431)
      expect(answer.json).toMatchObject({ code: "REQUEST_HEADER_FIELDS_TOO_LARGE" })
    }))

  it.effect("a request Node cannot parse gets 400 with the JSON body", () =>
    Effect.gen(function*() {
      const answer = parse(yield* rawExchange("NOT-HTTP\r\n\r\n"))
      expect(answer.status).toBe(400)
      expect(answer.json).toMatchObject({ code: "BAD_REQUEST", message: expect.any(String) })
    }))

  it.effect("an invalid Content-Length gets 400 with the JSON body", () =>
    Effect.gen(function*() {
      const answer = parse(yield* rawExchange("POST /probe/echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"))
      expect(answer.status).toBe(400)
      expect(answer.json).toMatchObject({ code: "BAD_REQUEST" })
    }))
})
