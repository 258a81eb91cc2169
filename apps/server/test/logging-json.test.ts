import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { freePort, linesOf, startServerProcess, stop, waitReady } from "./support/server-process.js"

const parses = (line: string) => {
  try {
    JSON.parse(line)
    return true
  } catch {
    return false
  }
}

describe("with LOG_FORMAT=json every line on stdout is JSON", () => {
  it.scopedLive("from the first line (the tracing notice) to the last; the banner goes to stderr", () =>
    Effect.gen(function*() {
      // Tracing on, towards a port nobody listens on: its start-up notice is the very first log line.
      const collector = yield* freePort
      const server = yield* startServerProcess({
        LOG_FORMAT: "json",
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector}`
      })
      expect(yield* waitReady(server), server.stderr()).toBe(true)
      yield* Effect.promise(() => fetch(`http://127.0.0.1:${server.port}/v1/me`).then((r) => r.text()))
      expect(yield* stop(server)).toBe(0)

      const lines = linesOf(server.stdout())
      expect(lines.length).toBeGreaterThan(3)
      expect(lines.filter((line) => !parses(line))).toEqual([])
      expect(JSON.parse(lines[0] ?? "{}").message).toContain("tracing: exporting spans")
      expect(lines.some((line) => JSON.parse(line).message === "Embedded PGlite database started")).toBe(true)
      expect(server.stdout()).not.toContain("is up")
      expect(server.stderr()).toContain("Training and Knowledge Service is up.")
    }), { timeout: 120_000 })
})
