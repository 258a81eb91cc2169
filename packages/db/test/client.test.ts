import { SqlClient } from "@effect/sql"
import { expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Layer, Option, Redacted } from "effect"
import { DatabaseLive, sessionUrl } from "../src/client.js"
import { DatabaseConfig } from "../src/config.js"
import { DatabaseHealth } from "../src/health.js"
import { provisionTestDatabase } from "../src/test-database.js"
import { buildWithEnv } from "./support/with-env.js"

const readConfig = (env: Record<string, string>) =>
  Effect.either(DatabaseConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

it.effect("DatabaseConfig: defaults, milliseconds, and an empty DATABASE_URL means embedded", () =>
  Effect.gen(function*() {
    const defaults = yield* readConfig({})
    expect(Either.isRight(defaults)).toBe(true)
    if (Either.isRight(defaults)) {
      expect(Option.isNone(defaults.right.url)).toBe(true)
      expect(defaults.right.dataDir).toBe("./.data")
      expect(defaults.right.poolMax).toBe(10)
      expect(Duration.toMillis(defaults.right.statementTimeout)).toBe(15_000)
      expect(Duration.toMillis(defaults.right.connectionTTL)).toBe(300_000)
      expect(Duration.toMillis(defaults.right.startTimeout)).toBe(30_000)
    }
    const empty = yield* readConfig({ DATABASE_URL: "" })
    expect(Either.isRight(empty) && Option.isNone(empty.right.url)).toBe(true)
    const set = yield* readConfig({ DATABASE_URL: "postgres://db/x", DB_CONNECT_TIMEOUT_MS: "250" })
    expect(Either.isRight(set) && Option.isSome(set.right.url)).toBe(true)
    expect(Either.isRight(set) && Duration.toMillis(set.right.connectTimeout)).toBe(250)
    expect(Either.isLeft(yield* readConfig({ DB_POOL_MAX: "0" }))).toBe(true)
    expect(Either.isLeft(yield* readConfig({ DB_IDLE_TIMEOUT_MS: "soon" }))).toBe(true)
  }))

it.effect("sessionUrl adds the timeouts and keeps the caller's parameters", () =>
  Effect.gen(function*() {
    const url = yield* sessionUrl(Redacted.make("postgres://u:p%40ss@db:6543/app?sslmode=require"), Duration.seconds(3))
    const parsed = new URL(Redacted.value(url))
    expect(parsed.password).toBe("p%40ss")
    expect(parsed.searchParams.get("sslmode")).toBe("require")
    expect(parsed.searchParams.get("statement_timeout")).toBe("3000")
    expect(parsed.searchParams.get("query_timeout")).toBe("5000")
    expect(Either.isLeft(yield* Effect.either(sessionUrl(Redacted.make("not a url"), Duration.seconds(1))))).toBe(true)
  }))

// DatabaseLive given DATABASE_URL: real PostgreSQL with TEST_DATABASE_URL,
// else an embedded database reached by URL (the same code path).
const ByUrl = Layer.unwrapScoped(
  Effect.gen(function*() {
    const url = yield* provisionTestDatabase(21)
    const context = yield* buildWithEnv(DatabaseLive, { DATABASE_URL: Redacted.value(url), DB_STATEMENT_TIMEOUT_MS: "1000" })
    return Layer.succeedContext(context)
  })
)

layer(ByUrl, { excludeTestServices: true })("DatabaseLive with DATABASE_URL", (it) => {
  it.effect("queries work and DatabaseHealth.ping is true", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly answer: number }>`SELECT 6 * 7 AS answer`
      expect(rows).toEqual([{ answer: 42 }])
      const health = yield* DatabaseHealth.pipe(Effect.provide(DatabaseHealth.Default))
      expect(yield* health.ping).toBe(true)
    }))

  it.effect("the statement timeout reaches the server (PGlite accepts but does not enforce it)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly version: string }>`SELECT version() AS version`
      if (row?.version.includes("PGlite")) return
      const [setting] = yield* sql<{ readonly timeout: string }>`SELECT current_setting('statement_timeout') AS timeout`
      expect(setting?.timeout).toBe("1s")
      const slow = yield* Effect.either(sql`SELECT pg_sleep(3)`)
      expect(Either.isLeft(slow) && String(slow.left.cause)).toContain("statement timeout")
    }))

  it.effect("an interrupted query leaves the client usable", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const timedOut = yield* Effect.either(sql`SELECT pg_sleep(0.5)`.pipe(Effect.timeout("100 millis")))
      expect(Either.isLeft(timedOut)).toBe(true)
      const answers = yield* Effect.all(
        Array.from({ length: 8 }, (_, i) => sql<{ readonly n: number }>`SELECT ${i}::int AS n`),
        { concurrency: 4 }
      )
      expect(answers.map((rows) => rows[0]?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    }))
})
