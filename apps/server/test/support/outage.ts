import { createHttpServer } from "../../src/http/node-server.js"
import { Reactivity } from "@effect/experimental"
import { FetchHttpClient, HttpLayerRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Context, Duration, Effect, Layer, List, Logger, LogLevel } from "effect"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { CoreLive } from "@tks/core/live"
import { clientContext, embeddedConnectionLimit, makePgClient } from "@tks/db/client"
import type { PoolSettings } from "@tks/db/config"
import { DatabaseHealth } from "@tks/db/health"
import { runMigrations } from "@tks/db/migrate"
import { provisionMigratedTestDatabase, TEST_POOL } from "@tks/db/test-database"
// The db package's own recovery test uses this proxy; one copy for both.
import { type BlackholeProxy, startBlackholeProxy } from "../../../../packages/db/test/support/blackhole-proxy.js"
import { HttpRoutes } from "../../src/http/routes.js"
import { TestAdaptersLive, TestWebhookSenderLive } from "./adapters.js"

/**
 * Production-like pool settings (a connection TTL and connect and
 * query timeouts: without them a black-holed connection kept the service at
 * 503), with 1 s connect and
 * statement timeouts so an outage test is quick. The TTL stays at five
 * minutes: recovery must not wait for it.
 */
export const OUTAGE_POOL: PoolSettings = {
  poolMax: 4,
  connectTimeout: Duration.seconds(1),
  idleTimeout: Duration.seconds(30),
  connectionTTL: Duration.minutes(5),
  statementTimeout: Duration.seconds(1)
}

/** The TCP proxy between the server's pool and its database. */
export class DatabaseProxy extends Context.Tag("test/DatabaseProxy")<DatabaseProxy, BlackholeProxy>() {}

// A fresh database, migrated over a direct connection; the server's pool
// reaches it only through the proxy.
const databaseThroughProxy = (pool: PoolSettings) =>
  Layer.scopedContext(Effect.gen(function*() {
    // The pool, the short-lived migration client, and sockets still closing.
    const url = yield* provisionMigratedTestDatabase(embeddedConnectionLimit(pool.poolMax) + 2)
    yield* makePgClient(url, { ...TEST_POOL, poolMax: 1 }).pipe(
      Effect.flatMap((client) => runMigrations().pipe(Effect.provide(clientContext(client)))),
      Effect.scoped
    )
    const proxy = yield* startBlackholeProxy(url)
    const client = yield* makePgClient(proxy.url, pool)
    return clientContext(client).pipe(Context.add(DatabaseProxy, proxy))
  })).pipe(Layer.provide(Reactivity.layer))

/**
 * What the server warned about (the cause of each "database unavailable"
 * 503, a passed request deadline), oldest first: a 503's body says only that
 * the database is unavailable, so a failing assertion quotes these to say
 * which failure it was (a connect or acquire timeout, a query timeout, a
 * dead connection).
 */
export const serverWarnings: Array<{ readonly at: number; readonly message: string }> = []

// An error with the messages of its causes, nearest first (a SqlError's own message is generic).
const withCauses = (part: unknown): string => {
  const text = [String(part)]
  let cause: unknown = part
  while (text.length < 5 && typeof cause === "object" && cause !== null && "cause" in cause && cause.cause !== undefined) {
    cause = cause.cause
    text.push(cause instanceof Error ? cause.message : String(cause))
  }
  return text.join(": ")
}

// Warnings are recorded, not printed (an outage test expects many); errors still show.
const RecordWarnings = Logger.replace(
  Logger.defaultLogger,
  Logger.make((options) => {
    if (LogLevel.greaterThanEqual(options.logLevel, LogLevel.Error)) return Logger.defaultLogger.log(options)
    const parts = List.isList(options.message) ? List.toArray(options.message) : Array.isArray(options.message) ? options.message : [options.message]
    const annotations = [...options.annotations].map(([key, value]) => `${key}=${String(value)}`)
    serverWarnings.push({ at: Date.now(), message: [...parts.map(withCauses), ...annotations].join(" ") })
  })
)

/**
 * The real server as in ./server.ts (every route, the real middleware, on a
 * free loopback port), whose one pool reaches a fresh, migrated test database
 * through a proxy the test can black-hole, close and restore. `env` adds to
 * the environment the server reads its configuration from.
 */
export const outageServer = (pool: PoolSettings, env: Record<string, string> = {}) => {
  const server = HttpLayerRouter.serve(HttpRoutes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(Layer.mergeAll(CoreLive, DatabaseHealth.Default, FixtureImporter.Default)),
    Layer.provideMerge(Layer.merge(TestAdaptersLive, TestWebhookSenderLive)),
    Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(FetchHttpClient.layer),
    Layer.provideMerge(databaseThroughProxy(pool)),
    Layer.provide(RecordWarnings),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  const config = ConfigProvider.fromMap(new Map(Object.entries(env))).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )
  return Layer.unwrapScoped(Layer.build(server).pipe(Effect.map(Layer.succeedContext), Effect.withConfigProvider(config)))
}

export const OutageServerLive = outageServer(OUTAGE_POOL)

/** The request deadline under the server's own settings. */
export const DEADLINE_MS = 1_000

/**
 * Production's 15 s statement timeout (queries on a black-holed connection
 * fail after 16 s) and a 1 s request deadline: only the deadline can answer
 * within the call limit.
 */
export const DeadlineServerLive = outageServer(
  { ...OUTAGE_POOL, statementTimeout: Duration.seconds(15) },
  { REQUEST_TIMEOUT_MS: String(DEADLINE_MS) }
)
