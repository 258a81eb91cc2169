import { createServer, type Socket } from "node:net"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Redacted } from "effect"
import { DatabaseLive } from "../src/client.js"
import { provisionTestDatabase } from "../src/test-database.js"
import { startBlackholeProxy } from "./support/blackhole-proxy.js"
import { buildWithEnv } from "./support/with-env.js"

/** A loopback TCP server answering every connection with `onConnection`; its port and how many connected. */
const tcpServer = (onConnection: (socket: Socket) => void) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly connections: () => number; readonly close: Effect.Effect<void> }>(
      (resume) => {
        let connections = 0
        const server = createServer((socket) => {
          connections++
          socket.on("error", () => {})
          onConnection(socket)
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resume(Effect.succeed({
            port: typeof address === "object" && address !== null ? address.port : 0,
            connections: () => connections,
            close: Effect.async<void>((done) => void server.close(() => done(Effect.void)))
          }))
        })
      }
    ),
    (server) => server.close.pipe(Effect.ignore)
  )

// A port nothing listens on: one the OS just gave out, closed again.
const closedPort = Effect.scoped(Effect.flatMap(tcpServer(() => {}), (server) => Effect.as(server.close, server.port)))

// What PostgreSQL answers a startup message with a wrong password: ErrorResponse, SQLSTATE 28P01.
const authenticationFailed = () => {
  const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`)
  const body = Buffer.concat([
    field("S", "FATAL"),
    field("C", "28P01"),
    field("M", "password authentication failed for user \"tks\""),
    Buffer.from([0])
  ])
  const length = Buffer.alloc(4)
  length.writeInt32BE(body.length + 4)
  return Buffer.concat([Buffer.from("E"), length, body])
}

const startWith = (env: Record<string, string>) => Effect.either(buildWithEnv(DatabaseLive, env))

describe("DatabaseLive at start-up", () => {
  it.scopedLive("against a closed port it gives up after DB_START_TIMEOUT_MS with one sentence naming the host, never the password", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const started = yield* startWith({
        DATABASE_URL: `postgres://tks:s3cret-pass@127.0.0.1:${port}/app`,
        DB_START_TIMEOUT_MS: "600",
        DB_CONNECT_TIMEOUT_MS: "200"
      })
      expect(Either.isLeft(started) && started.left._tag).toBe("DatabaseUnreachableError")
      const message = Either.isLeft(started) ? started.left.message : ""
      expect(message).toBe(`Cannot reach the database at 127.0.0.1:${port} after 0.6 s: connection refused`)
      expect(message).not.toContain("s3cret")
    }))

  it.scopedLive("it retries with backoff until the deadline: a server that hangs up is tried again and again", () =>
    Effect.gen(function*() {
      const server = yield* tcpServer((socket) => socket.destroy())
      const started = yield* startWith({
        DATABASE_URL: `postgres://tks@127.0.0.1:${server.port}/app`,
        DB_START_TIMEOUT_MS: "1000",
        DB_CONNECT_TIMEOUT_MS: "200"
      })
      expect(Either.isLeft(started) && started.left.message).toBe(
        `Cannot reach the database at 127.0.0.1:${server.port} after 1 s: connection terminated unexpectedly`
      )
      // 0, 100, 300 and 700 ms at least: not one attempt, and not a tight loop.
      expect(server.connections()).toBeGreaterThanOrEqual(4)
      expect(server.connections()).toBeLessThanOrEqual(8)
    }))

  it.scopedLive("wrong credentials fail at once with the server's reason: no retry can fix them", () =>
    Effect.gen(function*() {
      const server = yield* tcpServer((socket) => socket.once("data", () => socket.end(authenticationFailed())))
      const started = yield* startWith({
        DATABASE_URL: `postgres://tks:wrong@127.0.0.1:${server.port}/app`,
        DB_START_TIMEOUT_MS: "30000"
      })
      expect(Either.isLeft(started) && started.left.message).toBe(
        `Cannot connect to the database at 127.0.0.1:${server.port}: password authentication failed for user "tks"`
      )
      expect(server.connections()).toBe(1)
    }))

  it.scopedLive("a database that starts listening while the service waits is used", () =>
    Effect.gen(function*() {
      const proxy = yield* startBlackholeProxy(yield* provisionTestDatabase(21))
      yield* proxy.refuse
      yield* Effect.forkScoped(Effect.delay(proxy.restore, "700 millis"))
      const context = yield* buildWithEnv(DatabaseLive, {
        DATABASE_URL: Redacted.value(proxy.url),
        DB_START_TIMEOUT_MS: "10000"
      })
      const sql = Context.get(context, SqlClient.SqlClient)
      expect(yield* sql`SELECT 1 AS one`).toEqual([{ one: 1 }])
    }))
})
