import { request } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHttpServer, requestsInFlight } from "../src/http/node-server.js"
import { linesOf, startServerProcess, stop, waitReady } from "./support/server-process.js"

interface LogLine {
  readonly message: string
  readonly annotations: Record<string, unknown>
}

describe("start and shutdown are logged, with what the shutdown drained", () => {
  it.scopedLive("a started line names where it listens; SIGTERM logs shutting down with the requests in flight, then stopped with those drained", () =>
    Effect.gen(function*() {
      const server = yield* startServerProcess({ LOG_FORMAT: "json", SEED_DEMO: "false" })
      expect(yield* waitReady(server), server.stderr()).toBe(true)
      expect(yield* stop(server)).toBe(0)
      const lines = linesOf(server.stdout()).map((line) => JSON.parse(line) as LogLine)
      const messages = lines.map((line) => line.message)
      const started = lines.find((line) => line.message === "service started")
      expect(started?.annotations).toMatchObject({ port: server.port, host: "127.0.0.1", workers: expect.any(Number) })
      const shutting = lines.find((line) => line.message.startsWith("shutting down"))
      expect(shutting?.annotations).toMatchObject({ requestsInFlight: 0 })
      const stopped = lines.find((line) => line.message === "stopped")
      expect(stopped?.annotations).toMatchObject({ requestsDrained: 0, requestsCut: 0, shutdownMs: expect.any(Number) })
      expect(messages.indexOf("service started")).toBeLessThan(messages.indexOf(shutting!.message))
      expect(messages.indexOf(shutting!.message)).toBeLessThan(messages.indexOf("stopped"))
      expect(messages.at(-1)).toBe("stopped")
    }), { timeout: 120_000 })

  it.live("the listener counts a request as in flight from its arrival until its answer is sent", () =>
    Effect.gen(function*() {
      const server = createHttpServer()
      let answer: () => void = () => {}
      server.on("request", (_request, response) => {
        answer = () => response.end("done")
      })
      yield* Effect.promise(() => new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening)))
      const before = requestsInFlight()
      const body = Effect.promise(() =>
        new Promise<string>((done) => {
          const outgoing = request({ port: (server.address() as AddressInfo).port, host: "127.0.0.1", path: "/" }, (response) => {
            let text = ""
            response.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
            response.on("end", () => done(text))
          })
          outgoing.end()
        })
      )
      const answered = yield* Effect.fork(body)
      while (requestsInFlight() === before) yield* Effect.sleep("10 millis")
      expect(requestsInFlight()).toBe(before + 1)
      answer()
      expect(yield* answered.await.pipe(Effect.flatten)).toBe("done")
      while (requestsInFlight() !== before) yield* Effect.sleep("10 millis")
      expect(requestsInFlight()).toBe(before)
      yield* Effect.promise(() => new Promise((closed) => server.close(closed)))
    }))
})
