import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { type FetchedPage, PageFetcher, UnfetchableAddress } from "@tks/adapters/page-fetch/port"
import { LocalSpeechLive } from "@tks/adapters/speech/live"
import { TestVideoCatalogLive } from "./support/adapters.js"
import { hashToken } from "@tks/core/auth/token-secret"
import { clearOfMinuteEnd, contributorsOnce, intakeCounts } from "./support/contributors.js"
import { DatabaseProxy, OutageServerLive } from "./support/outage.js"
import { expectError } from "./support/responses.js"
import { raw, type RawResponse, testServerWith } from "./support/server.js"

/**
 * A keyed write that fails on our side keeps nothing, neither its answer
 * nor anything it did, so the same key runs it again: a 5xx from a database
 * connection lost mid-write, and a request abandoned at its deadline (the
 * transaction rolls back and the key is free again).
 */
const setup = contributorsOnce
const valid = { title: "Travel policy", content: "# Travel\n\nBook through the portal.", visibility: "everyone" }

const keyed = (token: string, key: string, path: string, body: unknown) =>
  raw("POST", path, { token, body: JSON.stringify(body), headers: { "idempotency-key": key } })

const keptStatus = (key: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ status: number }>`SELECT status FROM idempotency_keys WHERE key = ${key}`).pipe(
    Effect.map((rows) => rows.map((row) => row.status)),
    Effect.orDie
  )

/** The counts of the token's per-request rate limit. */
const tokenCount = (token: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ hits: ReadonlyArray<number> }>`
      SELECT c.hits FROM rate_limit_counters c JOIN access_tokens t ON t.org_id = c.org_id AND t.id = c.subject
      WHERE t.token_hash = ${hashToken(token)}`).pipe(Effect.map((rows) => rows.map((row) => row.hits)), Effect.orDie)

/** Sends the request again while its key is held: the abandoned first one may still be rolling back. */
const onceTheKeyIsFree = <R>(send: Effect.Effect<RawResponse, never, R>) =>
  Effect.gen(function*() {
    for (let attempt = 1; attempt < 50; attempt++) {
      const response = yield* send
      if (response.status !== 409) return response
      yield* Effect.sleep("100 millis")
    }
    return yield* send
  })

layer(OutageServerLive, { excludeTestServices: true })("a keyed write answered 5xx", (it) => {
  it.effect("a connection lost mid-write: 503, nothing it did kept (its authentication's count included), no answer kept; the same key then runs it, then replays it", () =>
    Effect.gen(function*() {
      const { result, secondToken } = yield* setup
      const proxy = yield* DatabaseProxy
      const token = yield* secondToken("admin")
      const key = `key-${randomUUID()}`
      yield* clearOfMinuteEnd
      expect((yield* raw("GET", "/v1/me", { token })).status).toBe(200)
      const before = yield* intakeCounts(result.organizationId)
      const countedBefore = yield* tokenCount(token)
      expect(countedBefore.length).toBe(1)

      // The document's content row is written by then; its processing job is next.
      yield* proxy.cutOn("INSERT INTO jobs")
      const failed = yield* keyed(token, key, "/v1/documents", valid)
      expectError(failed, 503, "SERVICE_UNAVAILABLE", failed.text)
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      expect(yield* keptStatus(key)).toEqual([])
      // Authentication counts on the direct statement path: it ran in the transaction, and was undone with it.
      expect(yield* tokenCount(token)).toEqual(countedBefore)

      const retried = yield* keyed(token, key, "/v1/documents", valid)
      expect(retried.status, retried.text).toBe(201)
      expect(retried.headers.get("idempotent-replayed")).toBeNull()
      const again = yield* keyed(token, key, "/v1/documents", valid)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.text).toBe(retried.text)
      expect((yield* intakeCounts(result.organizationId)).content).toBe(before.content + 1)
    }), 60_000)
})

const SLOW_PAGE = "https://slow.example.test/handbook"
const page: FetchedPage = { finalUrl: SLOW_PAGE, siteName: "Slow", title: "Handbook", markdown: "# Handbook\n\nSlow to fetch.\n", kind: "html" }
let slowFetches = 0

/** The page is slower than the request deadline the first time it is fetched, quick after. */
const SlowPageFetcherLive = Layer.succeed(PageFetcher, {
  fetch: (url) =>
    url.href !== SLOW_PAGE
      ? Effect.fail(new UnfetchableAddress({ reason: `not served: ${url.href}` }))
      : Effect.suspend(() => (slowFetches++ === 0 ? Effect.sleep("3 seconds") : Effect.void)).pipe(Effect.as(page))
})

const DEADLINE_MS = 500
const deadlineServer = Layer.unwrapScoped(
  Layer.build(testServerWith(Layer.mergeAll(SlowPageFetcherLive, TestVideoCatalogLive, LocalSpeechLive))).pipe(
    Effect.map(Layer.succeedContext),
    Effect.withConfigProvider(
      ConfigProvider.fromMap(new Map([["REQUEST_TIMEOUT_MS", String(DEADLINE_MS)]])).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
    )
  )
)

layer(deadlineServer, { excludeTestServices: true })("a keyed write past its deadline", (it) => {
  it.effect("503 at the deadline; its transaction rolls back, so nothing is kept and the same key runs the request afresh", () =>
    Effect.gen(function*() {
      const { result, token } = yield* setup
      const key = `key-${randomUUID()}`
      const body = { url: SLOW_PAGE, visibility: "everyone" }
      const before = yield* intakeCounts(result.organizationId)
      const late = yield* keyed(token("admin"), key, "/v1/documents/from-url", body)
      expectError(late, 503, "SERVICE_UNAVAILABLE")
      expect(late.json.message).toContain("took longer than")

      const retried = yield* onceTheKeyIsFree(keyed(token("admin"), key, "/v1/documents/from-url", body))
      expect(retried.status, retried.text).toBe(201)
      expect(retried.headers.get("idempotent-replayed")).toBeNull()
      expect(slowFetches).toBe(2)
      expect((yield* intakeCounts(result.organizationId)).content).toBe(before.content + 1)
      expect(yield* keptStatus(key)).toEqual([201])
    }), 30_000)
})
