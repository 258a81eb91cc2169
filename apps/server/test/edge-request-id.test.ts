import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { capturedLogs, probeServer } from "./support/edge-probe.js"
import { raw } from "./support/server.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

layer(probeServer(), { excludeTestServices: true })("X-Request-Id", (it) => {
  describe("echoed or generated, on every response", () => {
    it.effect("a sane caller id is echoed; none gets a fresh UUID", () =>
      Effect.gen(function*() {
        const echoed = yield* raw("GET", "/probe/items?n=1", { headers: { "x-request-id": "client-req-42" } })
        expect(echoed.status).toBe(200)
        expect(echoed.headers.get("x-request-id")).toBe("client-req-42")
        const fresh = yield* raw("GET", "/probe/items?n=1")
        expect(fresh.headers.get("x-request-id")).toMatch(UUID)
        const other = yield* raw("GET", "/probe/items?n=1")
        expect(other.headers.get("x-request-id")).not.toBe(fresh.headers.get("x-request-id"))
      }))

    it.effect("an id over 200 characters or with spaces or non-ASCII is replaced by a fresh one", () =>
      Effect.gen(function*() {
        for (const id of ["x".repeat(201), "has space", "caf\u00e9"]) {
          const response = yield* raw("GET", "/probe/items?n=1", { headers: { "x-request-id": id } })
          expect(response.headers.get("x-request-id"), id.slice(0, 10)).toMatch(UUID)
        }
        const longest = "y".repeat(200)
        const kept = yield* raw("GET", "/probe/items?n=1", { headers: { "x-request-id": longest } })
        expect(kept.headers.get("x-request-id")).toBe(longest)
      }))

    it.effect("every error body carries requestId, equal to the header: 400, 404, 405, 500", () =>
      Effect.gen(function*() {
        const cases = [["GET", "/probe/items?n=abc", 400], ["GET", "/nowhere", 404], ["DELETE", "/probe/items", 405], ["GET", "/defect", 500]] as const
        for (const [method, path, status] of cases) {
          const response = yield* raw(method, path, { headers: { "x-request-id": `id-${status}` } })
          expect(response.status).toBe(status)
          expect(response.headers.get("x-request-id")).toBe(`id-${status}`)
          expect(response.json).toMatchObject({ requestId: `id-${status}`, code: expect.any(String), message: expect.any(String) })
        }
      }))

    it.effect("a caller id with a quote stays valid JSON in the error body", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/nowhere", { headers: { "x-request-id": "a\"b\\c" } })
        expect(response.json).toMatchObject({ requestId: "a\"b\\c", code: "NOT_FOUND" })
      }))

    it.effect("success bodies are left as they are", () =>
      Effect.gen(function*() {
        const response = yield* raw("GET", "/probe/items?n=1", { headers: { "x-request-id": "ok-1" } })
        expect(response.json).toEqual({ data: [{ id: "item_0", name: "Item number 0" }] })
      }))
  })

  describe("on every log line of the request", () => {
    it.effect("a handler's log line and the server's access line carry the request id and the trace id", () =>
      Effect.gen(function*() {
        capturedLogs.length = 0
        yield* raw("GET", "/probe/log", { headers: { "x-request-id": "log-me" } })
        const lines = capturedLogs.filter((line) => line.annotations.requestId === "log-me")
        expect(lines.map((line) => line.message)).toEqual(
          expect.arrayContaining([expect.stringContaining("inside the handler"), expect.stringContaining("Sent HTTP response")])
        )
        for (const line of lines) {
          expect(line.annotations.traceId).toEqual(expect.any(String))
          expect(line.annotations.spanId).toEqual(expect.any(String))
        }
      }))

    it.effect("a logged 500 carries the request id", () =>
      Effect.gen(function*() {
        capturedLogs.length = 0
        yield* raw("GET", "/defect", { headers: { "x-request-id": "boom-1" } })
        const failure = capturedLogs.find((line) => line.message.includes("unhandled failure"))
        expect(failure?.annotations.requestId).toBe("boom-1")
      }))
  })
})

layer(probeServer({}, { tracing: false }), { excludeTestServices: true })("X-Request-Id with tracing off", (it) => {
  it.effect("log lines carry the request id and no trace id when tracing is off", () =>
    Effect.gen(function*() {
      capturedLogs.length = 0
      yield* raw("GET", "/probe/log", { headers: { "x-request-id": "untraced" } })
      const lines = capturedLogs.filter((line) => line.annotations.requestId === "untraced")
      expect(lines.length).toBeGreaterThanOrEqual(2)
      for (const line of lines) expect(line.annotations.traceId).toBeUndefined()
    }))
})
