import { randomUUID } from "node:crypto"
import { connect, createServer, type Socket } from "node:net"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { contributors } from "@tks/core/testing/contributors"
import { type ServerProcess, startServerProcess, waitReady } from "./support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

const TestLayer = FixtureImporter.Default.pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

/**
 * A loopback TCP proxy in front of `port` that forwards what the caller
 * sends and holds back everything the server answers: a caller whose answer
 * is lost on the way. Closed with the scope.
 */
const answerHoldingProxy = (port: number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
      const sockets = new Set<Socket>()
      const server = createServer((caller) => {
        const upstream = connect(port, "127.0.0.1")
        sockets.add(caller).add(upstream)
        caller.on("data", (bytes) => upstream.write(bytes))
        caller.on("error", () => upstream.destroy())
        upstream.on("data", () => {})
        upstream.on("error", () => caller.destroy())
        upstream.on("close", () => caller.destroy())
      })
      const close = () => {
        for (const socket of sockets) socket.destroy()
        server.close()
      }
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(Effect.succeed({ port: typeof address === "object" && address !== null ? address.port : 0, close }))
      })
    }),
    (proxy) => Effect.sync(proxy.close)
  )

const startServer = Effect.gen(function*() {
  const url = yield* SharedDatabaseUrl
  const server = yield* startServerProcess({ DATABASE_URL: url, WORKERS: "0", SEED_DEMO: "false", DB_POOL_MAX: "3", LOG_LEVEL: "Warning" })
  if (!(yield* waitReady(server))) return yield* Effect.dieMessage(`the server did not start: ${server.stderr()}`)
  return server
})

const post = (port: number, token: string, key: string, body: unknown) =>
  fetch(`http://127.0.0.1:${port}/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body)
  })

/** Polls until the key's answer is committed, failing the test if `server` exits first. */
const keptAnswer = (server: ServerProcess, key: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    while (true) {
      const [row] = yield* sql<{ status: number; body: Uint8Array }>`SELECT status, body FROM idempotency_keys WHERE key = ${key}`
      if (row !== undefined) return { status: row.status, body: new TextDecoder().decode(row.body) }
      if (server.child.exitCode !== null) return yield* Effect.dieMessage(`the server exited: ${server.stderr()}`)
      yield* Effect.sleep(Duration.millis(50))
    }
  }).pipe(Effect.orDie)

const contentCount = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM content WHERE org_id = ${orgId}`).pipe(
    Effect.map((rows) => rows[0]!.n),
    Effect.orDie
  )

// Real processes and real time: the answer is committed, the server dies before the caller hears it.
layer(TestLayer, { excludeTestServices: true })("a server killed between the commit and the answer", (it) => {
  it.scoped("the retry with the key gets the kept answer, replayed, and the act is not done twice", () =>
    Effect.gen(function*() {
      const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) => importer.importOrganization(contributors)))
      const token = imported.tokens.admin!
      const key = `key-${randomUUID()}`
      const body = { title: "Travel policy", content: "# Travel\n\nBook through the portal.", visibility: "everyone" }
      const before = yield* contentCount(imported.organizationId)

      const first = yield* startServer
      const proxy = yield* answerHoldingProxy(first.port)
      const lost = post(proxy.port, token, key, body).then((response) => `answered ${response.status}`, () => "no answer")
      const kept = yield* keptAnswer(first, key)
      expect(kept.status).toBe(201)
      first.child.kill("SIGKILL")
      yield* first.exited
      expect(yield* Effect.promise(() => lost)).toBe("no answer")
      expect(yield* contentCount(imported.organizationId)).toBe(before + 1)

      const second = yield* startServer
      const retried = yield* Effect.promise(() => post(second.port, token, key, body))
      expect(retried.status).toBe(201)
      expect(retried.headers.get("idempotent-replayed")).toBe("true")
      expect(yield* Effect.promise(() => retried.text())).toBe(kept.body)
      expect(yield* contentCount(imported.organizationId)).toBe(before + 1)
    }), { timeout: 120_000 })
})
