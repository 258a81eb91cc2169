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

const connected = (port: number) =>
  Effect.async<Socket>((resume) => {
    const socket = watchdogSocket(DEADLINE)()
    socket.on("error", () => {})
    socket.connect(port, "127.0.0.1", () => resume(Effect.succeed(socket)))
  })

const send = (socket: Socket, bytes: string) => Effect.sync(() => socket.write(bytes))
const alive = (socket: Socket) => Effect.sync(() => !socket.destroyed)

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
})
