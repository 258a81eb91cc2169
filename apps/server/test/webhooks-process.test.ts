import { existsSync } from "node:fs"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { verifiedWith, webhookReceiver } from "../../../packages/adapters/test/support/webhook-receiver.js"
import { rawAt } from "./support/http.js"
import { linesOf, startServerProcess, stop, waitReady, waitUntil } from "./support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

const TestLayer = FixtureImporter.Default.pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const LEASE_MS = 1_500

/** A server process on the test's database, delivering webhooks to loopback receivers. */
const startServer = (id: string) =>
  Effect.gen(function*() {
    const server = yield* startServerProcess({
      DATABASE_URL: yield* SharedDatabaseUrl,
      SEED_DEMO: "false",
      DB_POOL_MAX: "4",
      LOG_LEVEL: "Warning",
      WORKER_ID: id,
      WORKER_POLL_MS: "100",
      WORKER_LEASE_MS: String(LEASE_MS),
      WORKER_RETRY_BASE_MS: "50",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
    })
    expect(yield* waitReady(server), server.stderr()).toBe(true)
    return server
  })

const deliveryOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; attempts: number; response_status: number | null }>`
      SELECT status, attempts, response_status FROM webhook_deliveries WHERE id = ${id}`).pipe(
      Effect.map((rows) => rows[0]!),
      Effect.orDie
    )

// Real processes and a real receiver, on real time.
layer(TestLayer, { excludeTestServices: true })("webhooks delivered by server processes", (it) => {
  it.scoped("a server SIGKILLed while its delivery waits for the receiver's answer: the next server delivers it, under the same webhook-id", () =>
    Effect.gen(function*() {
      const receiver = yield* webhookReceiver()
      // The first POST is never answered: the killed server is waiting on it.
      receiver.answerWith((n) => (n === 0 ? "hang" : { status: 200, body: "ok" }))
      const importer = yield* FixtureImporter
      const imported = yield* Effect.orDie(importer.importOrganization({
        organization: { name: "Webhook Kill Org" },
        people: [{ key: "ann", name: "Ann Owner", email: "ann@kill.test", role: "owner", tokenScopes: [] }]
      }))
      const token = imported.tokens.ann!

      const first = yield* startServer("killed")
      const at = `http://127.0.0.1:${first.port}`
      const endpoint = yield* rawAt(at, "POST", "/v1/webhook-endpoints", {
        token,
        body: JSON.stringify({ url: receiver.url(), eventTypes: ["enrollment.created"] })
      })
      expect(endpoint.status, endpoint.text).toBe(201)
      const ping = yield* rawAt(at, "POST", `/v1/webhook-endpoints/${endpoint.json.id}/test`, { token })
      expect(ping.status).toBe(202)
      yield* waitUntil(first, Effect.sync(() => receiver.received.length === 1))
      first.child.kill("SIGKILL")
      yield* first.exited
      // Sent, but the answer never came back to a living server: nothing recorded, still PENDING.
      expect(yield* deliveryOf(ping.json.id)).toEqual({ status: "PENDING", attempts: 0, response_status: null })

      // The next server takes the job over once its lease lapses.
      const second = yield* startServer("after-kill")
      yield* waitUntil(second, Effect.map(deliveryOf(ping.json.id), (row) => row.status === "SUCCEEDED"))
      expect(yield* deliveryOf(ping.json.id)).toEqual({ status: "SUCCEEDED", attempts: 1, response_status: 200 })
      // At least once: it arrived twice, both times under the one webhook-id, each signed.
      expect(receiver.ids()).toEqual([ping.json.eventId, ping.json.eventId])
      for (const request of receiver.received) expect(verifiedWith(endpoint.json.secret, request)).toMatchObject({ type: "ping" })
      expect(yield* stop(second)).toBe(0)
      expect(linesOf(second.stderr()).filter((line) => line.includes("Cannot start"))).toEqual([])
    }), { timeout: 120_000 })

  it.scoped("WEBHOOK_ALLOW_PRIVATE_TARGETS=true with NODE_ENV=production stops the start with one line saying why, before anything is opened", () =>
    Effect.gen(function*() {
      const server = yield* startServerProcess({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })
      expect(yield* server.exited).toBe(1)
      expect(linesOf(server.stderr())).toEqual([
        "Cannot start the service: WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused with NODE_ENV=production: webhooks are delivered only to public https addresses there"
      ])
      expect(existsSync(server.dataDir), "nothing was opened").toBe(false)
    }), { timeout: 120_000 })
})
