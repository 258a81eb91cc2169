import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { narrators, readerKeys } from "@tks/core/testing/narrators"
import { narrationMonthlyAllowance } from "@tks/domain/narration"
import { startMonthAt, usedThisMonth } from "./support/narrators.js"
import { type ServerProcess, startServerProcess, stop, waitReady } from "./support/server-process.js"
import { SharedDatabaseLive, SharedDatabaseUrl } from "./support/shared-database.js"

const TestLayer = FixtureImporter.Default.pipe(
  Layer.provideMerge(SharedDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

/** A server process on the test's database: no job workers, the local speech engine, a small pool. */
const startInstance = Effect.gen(function*() {
  const url = yield* SharedDatabaseUrl
  const server = yield* startServerProcess({ DATABASE_URL: url, SEED_DEMO: "false", WORKERS: "0", DB_POOL_MAX: "8", LOG_LEVEL: "Warning" })
  expect(yield* waitReady(server), server.stderr()).toBe(true)
  return server
})

const narrate = (server: ServerProcess, token: string, text: string) =>
  Effect.promise(async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/narration/synthesize`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ text })
    })
    const body = (await response.json()) as { code?: string; characters?: number }
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body }
  })

layer(TestLayer, { excludeTestServices: true })("the narration allowance across server instances", (it) => {
  it.scoped(
    "200 requests at once through two instances at the allowance's edge never spend past 100,000 characters, and every refused request is a 429 NARRATION_QUOTA_EXCEEDED",
    () =>
      Effect.gen(function*() {
        const importer = yield* FixtureImporter
        const org = yield* Effect.orDie(importer.importOrganization(narrators))
        const sql = yield* SqlClient.SqlClient
        const room = 2_000
        yield* startMonthAt(org.organizationId, narrationMonthlyAllowance - room)
        const [a, b] = yield* Effect.all([startInstance, startInstance], { concurrency: 2 })
        const text = "Read the safety notes before every shift starts."
        const fits = Math.floor(room / text.length)

        // 20 people, 10 requests each (well inside each token's burst limit), alternating instances.
        const calls = Array.from({ length: 200 }, (_, i) => ({
          server: i % 2 === 0 ? a! : b!,
          token: org.tokens[readerKeys[i % readerKeys.length]!]!
        }))
        const answers = yield* Effect.forEach(calls, (call) => narrate(call.server, call.token, text), { concurrency: "unbounded" })

        const spoken = answers.filter((answer) => answer.status === 200)
        const refused = answers.filter((answer) => answer.status !== 200)
        expect(spoken.length).toBe(fits)
        expect(spoken.every((answer) => answer.body.characters === text.length)).toBe(true)
        for (const answer of refused) {
          expect(answer.status, JSON.stringify(answer.body)).toBe(429)
          expect(answer.body.code).toBe("NARRATION_QUOTA_EXCEEDED")
          expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1)
        }
        // Which instance wins the race to the allowance is up to the database: one may take all of it.

        const used = yield* usedThisMonth(org.organizationId)
        expect(used).toBe(narrationMonthlyAllowance - room + fits * text.length)
        expect(used).toBeLessThanOrEqual(narrationMonthlyAllowance)
        const outcomes = yield* sql<{ outcome: string; n: number }>`
          SELECT outcome, count(*)::int AS n FROM narration_requests WHERE org_id = ${org.organizationId} GROUP BY outcome ORDER BY outcome`
        expect(outcomes).toEqual([{ outcome: "COMPLETED", n: fits }, { outcome: "QUOTA_EXCEEDED", n: 200 - fits }])
        expect(yield* stop(a!)).toBe(0)
        expect(yield* stop(b!)).toBe(0)
      }),
    { timeout: 240_000 }
  )
})
