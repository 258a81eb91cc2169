import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { narrators } from "@tks/core/testing/narrators"
import { loopbackServer } from "../../../packages/adapters/test/support/loopback-server.js"
import { startMonthAt, usedThisMonth } from "./support/narrators.js"
import { startServerProcess, stop, waitReady } from "./support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

const TestLayer = FixtureImporter.Default.pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

/** Polls `query` every 100 ms until `done` holds of its rows (at most 30 s). */
const waitFor = <A>(query: Effect.Effect<ReadonlyArray<A>, unknown>, done: (rows: ReadonlyArray<A>) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 300; i++) {
      const rows = yield* Effect.orDie(query)
      if (done(rows)) return rows
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.die("timed out waiting")
  })

layer(TestLayer, { excludeTestServices: true })("narration reservations of requests that died", (it) => {
  it.scoped("a server killed while speech is made leaves its reservation, and another instance's reaper gives it back after the timeout", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const org = yield* Effect.orDie(importer.importOrganization(narrators))
      const sql = yield* SqlClient.SqlClient
      const url = yield* SharedDatabaseUrl
      yield* startMonthAt(org.organizationId, 5000)
      // A speech provider that takes the request and never answers.
      const asked: Array<string> = []
      const provider = yield* loopbackServer({
        "/v1/text-to-speech/nPczCjzI2devNBz1zQrb/with-timestamps": (request) => void asked.push(request.url ?? "")
      })
      const common = { DATABASE_URL: url, SEED_DEMO: "false", WORKERS: "0", DB_POOL_MAX: "4", LOG_LEVEL: "Warning" }
      const doomed = yield* startServerProcess({
        ...common,
        ELEVENLABS_API_KEY: "test-key",
        ELEVENLABS_BASE_URL: `http://127.0.0.1:${provider.port}`,
        NARRATION_SPEECH_TIMEOUT_MS: "60000",
        NARRATION_RESERVATION_TIMEOUT_MS: "120000"
      })
      expect(yield* waitReady(doomed), doomed.stderr()).toBe(true)
      const text = "This request will never be answered."
      void fetch(`http://127.0.0.1:${doomed.port}/v1/narration/synthesize`, {
        method: "POST",
        headers: { authorization: `Bearer ${org.tokens["viewer"]}`, "content-type": "application/json" },
        body: JSON.stringify({ text })
      }).catch(() => undefined)
      const reservations = sql<{ id: string; outcome: string }>`SELECT id, outcome FROM narration_requests WHERE org_id = ${org.organizationId}`
      yield* waitFor(reservations, (rows) => rows.length === 1 && rows[0]!.outcome === "RESERVED")
      expect(yield* usedThisMonth(org.organizationId)).toBe(5000 + text.length)
      yield* waitFor(Effect.succeed(asked), (rows) => rows.length === 1)

      // The process dies with the request; nothing settles it.
      doomed.child.kill("SIGKILL")
      yield* doomed.exited

      const survivor = yield* startServerProcess({
        ...common,
        NARRATION_SPEECH_TIMEOUT_MS: "500",
        NARRATION_RESERVATION_TIMEOUT_MS: "2000",
        NARRATION_REAPER_INTERVAL_MS: "200"
      })
      expect(yield* waitReady(survivor), survivor.stderr()).toBe(true)
      yield* waitFor(reservations, (rows) => rows[0]?.outcome === "EXPIRED")
      expect(yield* usedThisMonth(org.organizationId)).toBe(5000)
      expect(survivor.stdout()).toMatch(/gave back 36 characters of 1 narration reservation/)
      expect(yield* stop(survivor)).toBe(0)
    }), { timeout: 120_000 })
})
