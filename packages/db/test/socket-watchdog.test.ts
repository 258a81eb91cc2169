import { createServer, type Socket } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { watchdogSocket } from "../src/socket-watchdog.js"

const DEADLINE = 300
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49])
const SOME_ROWS = Buffer.from("D\u0000\u0000\u0000\u000brow bytes")

// A fake server that answers each chunk it receives with `reply(chunk)` (nothing if undefined).
const fakeServer = (reply: (chunk: Buffer, count: number) => Buffer | undefined) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
      const sockets = new Set<Socket>()
      const server = createServer((socket) => {
        sockets.add(socket)
        let count = 0
        socket.on("data", (chunk) => {
          const answer = reply(chunk, ++count)
          if (answer) socket.write(answer)
        })
        socket.on("error", () => {})
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({
          port,
          close: () => {
            for (const socket of sockets) socket.destroy()
            server.close()
          }
        }))
      })
    }),
    (server) => Effect.sync(server.close)
  )

const connected = (port: number, factory: () => Socket = watchdogSocket(DEADLINE)) =>
  Effect.async<Socket>((resume) => {
    const socket = factory()
    socket.on("error", () => {})
    socket.connect(port, "127.0.0.1", () => resume(Effect.succeed(socket)))
  })

const send = (socket: Socket, bytes: string) => Effect.sync(() => socket.write(bytes))
const alive = (socket: Socket) => Effect.sync(() => !socket.destroyed)

/** Waits for `socket` to close; what `look` saw at that moment. */
const atClose = <A>(socket: Socket, look: () => A) =>
  Effect.async<A>((resume) => {
    socket.once("close", () => resume(Effect.succeed(look())))
  })

describe("watchdogSocket", () => {
  it.scopedLive("keeps a connection whose requests were answered, however long it then idles", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer(() => Buffer.concat([SOME_ROWS, READY_FOR_QUERY]))
      const socket = yield* connected(server.port)
      yield* send(socket, "query")
      yield* Effect.sleep(DEADLINE * 3)
      expect(yield* alive(socket)).toBe(true)
    }))

  it.scopedLive("drops a connection whose request got no answer", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer((_, count) => (count === 1 ? READY_FOR_QUERY : undefined))
      const socket = yield* connected(server.port)
      yield* send(socket, "startup")
      yield* Effect.sleep(DEADLINE * 2)
      expect(yield* alive(socket)).toBe(true)
      yield* send(socket, "lost query")
      yield* Effect.sleep(DEADLINE * 3)
      expect(yield* alive(socket)).toBe(false)
    }))

  it.scopedLive("drops a connection whose answer stopped half way", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer(() => SOME_ROWS)
      const socket = yield* connected(server.port)
      yield* send(socket, "query")
      yield* Effect.sleep(DEADLINE * 3)
      expect(yield* alive(socket)).toBe(false)
    }))

  it.scopedLive("under TLS (opaque bytes after 'S'), a read after a write counts as the answer", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer((_, count) => (count === 1 ? Buffer.from("S") : count === 2 ? SOME_ROWS : undefined))
      const socket = yield* connected(server.port)
      yield* send(socket, "SSLRequest")
      yield* Effect.sleep(100)
      yield* send(socket, "handshake")
      yield* Effect.sleep(DEADLINE * 3)
      expect(yield* alive(socket)).toBe(true)
      yield* send(socket, "lost query")
      yield* Effect.sleep(DEADLINE * 3)
      expect(yield* alive(socket)).toBe(false)
    }))

  it.scopedLive("when one connection is dropped for silence, the same pool's idle ones go too; waiting ones and other pools' stay", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer((chunk) => (/lost|slow/.test(chunk.toString()) ? undefined : READY_FOR_QUERY))
      const pool = watchdogSocket(DEADLINE)
      const idle = yield* connected(server.port, pool)
      const waiting = yield* connected(server.port, pool)
      const dying = yield* connected(server.port, pool)
      const otherPool = yield* connected(server.port)
      for (const socket of [idle, waiting, dying, otherPool]) yield* send(socket, "query")
      yield* Effect.sleep(DEADLINE / 3)

      yield* send(dying, "lost query")
      yield* Effect.sleep(DEADLINE / 2)
      // Waiting for an answer, but not yet for as long as the deadline.
      yield* send(waiting, "slow query")
      const seen = yield* atClose(dying, () => ({ idle: idle.destroyed, waiting: waiting.destroyed, other: otherPool.destroyed }))
      expect(seen).toEqual({ idle: true, waiting: false, other: false })
      // The waiting one still meets its own deadline.
      yield* Effect.sleep(DEADLINE * 2)
      expect(yield* alive(waiting)).toBe(false)
      expect(yield* alive(otherPool)).toBe(true)
    }))
})
