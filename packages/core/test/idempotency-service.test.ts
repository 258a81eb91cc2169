import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { hashToken } from "../src/auth/token-secret.js"
import { Idempotency, type KeyedRequest } from "../src/idempotency/service.js"
import { sweepExpiredKeys } from "../src/idempotency/sweep.js"
import { IdempotencyRepo } from "../src/idempotency/repo.js"
import { FixtureImporter } from "../src/org-import/importer.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Idempotency.Default, IdempotencyRepo.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

/** A token of a real person (a replay authenticates it) and a table the acts write to. */
const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS idempotency_probe (n int PRIMARY KEY)`
  const imported = yield* Effect.flatMap(FixtureImporter, (importer) =>
    importer.importOrganization({
      organization: { name: `Idempotency ${randomUUID()}` },
      people: [{ key: "admin", name: "Admin", email: `admin-${randomUUID()}@idempotency.test`, role: "admin", tokenScopes: [] }]
    }))
  return { sql, token: imported.tokens.admin! }
}).pipe(Effect.orDie)

const requestOf = (token: string, key = randomUUID()): KeyedRequest => ({ token, key, requestHash: "the request" })
const bytes = (text: string) => new TextEncoder().encode(text)
const answer = (status: number, text = `{"status":${status}}`) => ({
  status,
  answer: { status, contentType: "application/json", location: null, body: bytes(text) }
})

const probeRows = (sql: SqlClient.SqlClient, n: number) =>
  sql<{ n: number }>`SELECT n FROM idempotency_probe WHERE n = ${n}`.pipe(Effect.map((rows) => rows.length))

const keptRows = (sql: SqlClient.SqlClient, key: string) =>
  sql<{ status: number }>`SELECT status FROM idempotency_keys WHERE key = ${key}`.pipe(Effect.map((rows) => rows.map((row) => row.status)))

layer(TestLayer)("Idempotency.once, on the database", (it) => {
  it.effect("an act's statement the database refused leaves the transaction unusable: its writes are undone, its 4xx answer still kept", () =>
    Effect.gen(function*() {
      const { sql, token } = yield* setup
      const idempotency = yield* Idempotency
      const request = requestOf(token)
      const act = sql`INSERT INTO idempotency_probe VALUES (1)`.pipe(
        Effect.zipRight(sql`SELECT 1 / 0`),
        Effect.as(answer(500)),
        // As a handler answers a value the database refused: 400, the transaction now aborted.
        Effect.catchAll(() => Effect.succeed(answer(400)))
      )
      const first = yield* idempotency.once(request, act, (value) => value)
      expect(first).toMatchObject({ _tag: "Ran", value: { status: 400 } })
      expect(yield* keptRows(sql, request.key)).toEqual([400])
      expect(yield* probeRows(sql, 1)).toBe(0)
      const again = yield* idempotency.once(request, Effect.die("ran twice"), (value) => value)
      expect(again._tag).toBe("Replayed")
      expect(again._tag === "Replayed" && new TextDecoder().decode(again.answer.body)).toBe("{\"status\":400}")
    }))

  it.effect("the act commits only with its kept answer: an answer the database will not store leaves the act undone too", () =>
    Effect.gen(function*() {
      const { sql, token } = yield* setup
      const idempotency = yield* Idempotency
      const request = requestOf(token)
      const unstorable = { status: 201, answer: { ...answer(201).answer, contentType: "application/json\u0000" } }
      const exit = yield* Effect.exit(idempotency.once(request, Effect.as(sql`INSERT INTO idempotency_probe VALUES (5)`, unstorable), (value) => value))
      expect(exit._tag).toBe("Failure")
      expect(yield* probeRows(sql, 5)).toBe(0)
      expect(yield* keptRows(sql, request.key)).toEqual([])
    }))

  it.effect("a 5xx undoes what the act wrote and keeps nothing: the key runs the act again", () =>
    Effect.gen(function*() {
      const { sql, token } = yield* setup
      const idempotency = yield* Idempotency
      const request = requestOf(token)
      const failing = Effect.as(sql`INSERT INTO idempotency_probe VALUES (2)`, answer(503))
      expect(yield* idempotency.once(request, failing, (value) => value)).toMatchObject({ _tag: "Ran", value: { status: 503 } })
      expect(yield* probeRows(sql, 2)).toBe(0)
      expect(yield* keptRows(sql, request.key)).toEqual([])
      const retried = Effect.as(sql`INSERT INTO idempotency_probe VALUES (2)`, answer(201))
      expect(yield* idempotency.once(request, retried, (value) => value)).toMatchObject({ _tag: "Ran", value: { status: 201 } })
      expect(yield* probeRows(sql, 2)).toBe(1)
      expect(yield* keptRows(sql, request.key)).toEqual([201])
    }))

  it.effect("a 401 or a 429 keeps what the act wrote but not the answer", () =>
    Effect.gen(function*() {
      const { sql, token } = yield* setup
      const idempotency = yield* Idempotency
      for (const [n, status] of [[3, 401], [4, 429]] as const) {
        const request = requestOf(token)
        yield* idempotency.once(request, Effect.as(sql`INSERT INTO idempotency_probe VALUES (${n})`, answer(status)), (value) => value)
        expect(yield* probeRows(sql, n), String(status)).toBe(1)
        expect(yield* keptRows(sql, request.key), String(status)).toEqual([])
      }
    }))

  it.effect("an answer kept more than 24 hours ago is as if absent (replaced when the key comes again), and the sweep deletes it", () =>
    Effect.gen(function*() {
      const { sql, token } = yield* setup
      const idempotency = yield* Idempotency
      const repo = yield* IdempotencyRepo
      const [stale, staleToo] = [requestOf(token), requestOf(token)]
      for (const request of [stale, staleToo]) {
        yield* repo.keep(hashToken(token), request.key, "an older request", answer(200).answer)
        yield* sql`UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE key = ${request.key}`
      }
      const ran = yield* idempotency.once(stale, Effect.succeed(answer(201)), (value) => value)
      expect(ran).toMatchObject({ _tag: "Ran", value: { status: 201 } })
      expect(yield* keptRows(sql, stale.key)).toEqual([201])

      const fresh = requestOf(token)
      yield* idempotency.once(fresh, Effect.succeed(answer(201)), (value) => value)
      yield* sweepExpiredKeys
      expect(yield* keptRows(sql, staleToo.key)).toEqual([])
      expect(yield* keptRows(sql, stale.key)).toEqual([201])
      expect(yield* keptRows(sql, fresh.key)).toEqual([201])
    }))

  it.effect("the key of another token is another key", () =>
    Effect.gen(function*() {
      const { sql, token } = yield* setup
      const idempotency = yield* Idempotency
      const request = requestOf(token)
      yield* idempotency.once(request, Effect.succeed(answer(201)), (value) => value)
      const [row] = yield* sql<{ token_hash: string }>`SELECT token_hash FROM idempotency_keys WHERE key = ${request.key}`
      expect(row!.token_hash).toBe(hashToken(token))
      const other = yield* idempotency.once({ ...request, token: "tks_another" }, Effect.succeed(answer(201)), (value) => value)
      expect(other._tag).toBe("Ran")
    }))
})
