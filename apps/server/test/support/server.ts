import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest, HttpLayerRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { Api } from "@tks/api/api"
import { LocalQuestionGenerator } from "@tks/adapters/questions/local"
import { FixtureImporter } from "@tks/core/org-import/importer"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { CoreLive } from "@tks/core/live"
import { DatabaseHealth } from "@tks/db/health"
import { TestDatabaseLive } from "@tks/db/test-database"
import { TestExtractorLive } from "../../../../packages/core/test/support/test-extractor.js"
import { createHttpServer } from "../../src/http/node-server.js"
import { HttpRoutes } from "../../src/http/routes.js"
import { workersLayer } from "../../src/workers.js"
import { TestAdaptersLive, TestMessagingLive, TestWebhookSenderLive } from "./adapters.js"
import { type RawOptions, rawAt, rawNodeAt } from "./http.js"
import { SharedDatabaseLive } from "./shared-database.js"
import type { PageFetcher } from "@tks/adapters/page-fetch/port"
import type { VideoCatalog } from "@tks/adapters/video/port"
import type { SpeechSynthesizer } from "@tks/adapters/speech/port"
import type { MailSender } from "@tks/adapters/mail/port"
import type { SmsSender } from "@tks/adapters/sms/port"
import type { WebhookSender } from "@tks/adapters/webhooks/port"

/**
 * The job workers, as the server runs them, with the deterministic test
 * extractor (packages/core/test/support/test-extractor.ts), the server's
 * question generator (below) and a short poll, so a contract test can poll
 * GET /v1/content/{id} until it is COMPLETED, or a quiz until it is READY.
 */
export const TestWorkersLive = workersLayer({
  enabled: true,
  owner: "test-server",
  concurrency: 2,
  pollMs: 200,
  leaseMs: 10_000,
  retryBaseMs: 50,
  stageDelayMs: 0,
  // The server's default: the bench drains its webhooks through this server.
  webhookConcurrency: 16
}).pipe(Layer.provide(TestExtractorLive))

/**
 * The real server (every route, the real middleware, the job workers) on a
 * free loopback port, over a fresh, migrated test database (embedded PGlite,
 * or TEST_DATABASE_URL). Use with `layer(TestServerLive, { excludeTestServices: true })`.
 * Email and texts go to `messaging` (default: the recording doubles of support/adapters.ts),
 * webhooks through `webhooks` (default: the real sender, loopback receivers allowed).
 */
const composeTestServer = <E, E2, Db, E3, WE, WR, E4>(
  adapters: Layer.Layer<PageFetcher | VideoCatalog | SpeechSynthesizer, E>,
  messaging: Layer.Layer<MailSender | SmsSender, E2>,
  database: Layer.Layer<Db, E3>,
  workers: Layer.Layer<never, WE, WR>,
  webhooks: Layer.Layer<WebhookSender, E4> = TestWebhookSenderLive as Layer.Layer<WebhookSender, never>
) =>
  HttpLayerRouter.serve(HttpRoutes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(Layer.mergeAll(CoreLive, DatabaseHealth.Default, FixtureImporter.Default, workers)),
    // Quiz questions from the local (deterministic) generator, unless `adapters` brings its own.
    Layer.provideMerge(Layer.mergeAll(LocalQuestionGenerator, adapters, messaging, webhooks)),
    Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(FetchHttpClient.layer),
    Layer.provideMerge(database),
    // Keep test output to what matters: warnings and errors.
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

export const testServerWith = <E, E2 = never, E4 = never>(
  adapters: Layer.Layer<PageFetcher | VideoCatalog | SpeechSynthesizer, E>,
  messaging: Layer.Layer<MailSender | SmsSender, E2> = TestMessagingLive,
  webhooks: Layer.Layer<WebhookSender, E4> = TestWebhookSenderLive as Layer.Layer<WebhookSender, never>
) => composeTestServer(adapters, messaging, TestDatabaseLive, TestWorkersLive, webhooks)

/** The test server on a database that processes the test starts can reach too (its URL is SharedDatabaseUrl). */
export const TestServerOnSharedDatabaseLive = composeTestServer(TestAdaptersLive, TestMessagingLive, SharedDatabaseLive, TestWorkersLive)

/**
 * The test server on a shared database, without job workers: a test can run
 * another server (the bench's reference) on the same rows and know that only
 * the requests change them.
 */
export const TestServerOnSharedDatabaseWithoutWorkersLive = composeTestServer(
  TestAdaptersLive,
  TestMessagingLive,
  SharedDatabaseLive,
  Layer.empty
)

/** The test server with the test doubles of the outside world (support/adapters.ts). */
export const TestServerLive = testServerWith(TestAdaptersLive)

/**
 * The test server without job workers: nothing writes to the database but
 * the requests it answers, so a test can compare the tables before and
 * after a batch of requests (the contract fuzz's "a refused request writes
 * nothing").
 */
export const TestServerWithoutWorkersLive = composeTestServer(
  TestAdaptersLive,
  TestMessagingLive,
  TestDatabaseLive,
  Layer.empty
)

export const baseUrl = HttpServer.HttpServer.pipe(
  Effect.map((server) => {
    const address = server.address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    return `http://127.0.0.1:${address.port}`
  })
)

/** Creates an organization from a fixture; returns ids by key and tokens by person key. */
export const importFixture = (fixture: OrgFixtureInput) =>
  FixtureImporter.pipe(Effect.flatMap((importer) => importer.importOrganization(fixture)), Effect.orDie)

/** The typed client derived from the contract, calling as the holder of `token` (none: no header). */
export const clientFor = (token?: string) =>
  Effect.gen(function*() {
    const url = yield* baseUrl
    return yield* HttpApiClient.make(Api, {
      baseUrl: url,
      transformClient: token === undefined
        ? undefined
        : HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
    })
  })

export type { RawOptions, RawResponse } from "./http.js"

/** A plain HTTP call to this test's server, for status codes, headers and exact error bodies. */
export const raw = (method: string, path: string, options: RawOptions = {}) =>
  Effect.flatMap(baseUrl, (url) => rawAt(url, method, path, options))

/** A plain HTTP call to this test's server with the Host header `host` (undefined: the server's own address). */
export const rawWithHost = (host: string | undefined, method: string, path: string, options: RawOptions = {}) =>
  Effect.flatMap(baseUrl, (url) => rawNodeAt(url, method, path, host === undefined ? options : { ...options, host }))
