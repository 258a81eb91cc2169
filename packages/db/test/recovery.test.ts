import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Context, Duration, Effect, Either, Layer, type Redacted } from "effect"
import { clientContext, makePgClient } from "../src/client.js"
import type { PoolSettings } from "../src/config.js"
import { DatabaseHealth } from "../src/health.js"
import { provisionTestDatabase } from "../src/test-database.js"
import { startBlackholeProxy } from "./support/blackhole-proxy.js"

// Production-like, except a 1 s statement timeout so the test is quick. The
// TTL stays at five minutes: recovery must not wait for it.
const SETTINGS: PoolSettings = {
  poolMax: 3,
  connectTimeout: Duration.seconds(1),
  idleTimeout: Duration.seconds(30),
  connectionTTL: Duration.minutes(5),
  statementTimeout: Duration.seconds(1)
}

/** One fresh database for the file: real PostgreSQL with TEST_DATABASE_URL, else PGlite behind pglite-socket. */
class Target extends Context.Tag("test/Target")<Target, Redacted.Redacted>() {}
const TargetLive = Layer.scoped(Target, provisionTestDatabase(20))

// A new client reaching the database through a new black-hole proxy.
const throughProxy = (settings: PoolSettings = SETTINGS) => Effect.gen(function*() {
  const proxy = yield* startBlackholeProxy(yield* Target)
  const context = clientContext(yield* makePgClient(proxy.url, settings).pipe(Effect.provide(Reactivity.layer)))
  const sql = Context.get(context, SqlClient.SqlClient)
  const health = yield* DatabaseHealth.pipe(Effect.provide(DatabaseHealth.Default), Effect.provide(context))
  const query = sql<{ readonly one: number }>`SELECT 1 AS one`.pipe(Effect.map((rows) => rows[0]?.one))
  return { proxy, query, ping: health.ping }
})

/** The service is whole this soon after the database returns (issue 5). */
const RECOVERY_BOUND_MS = 2_000

// From now (the database is back), retries with a short pause until the
// query answers; returns how long that took.
const timeToRecover = (query: Effect.Effect<unknown, unknown>) =>
  Effect.gen(function*() {
    const started = Date.now()
    for (let attempt = 1; attempt <= 100; attempt++) {
      if (Either.isRight(yield* Effect.either(query))) return Date.now() - started
      yield* Effect.sleep("100 millis")
    }
    return Infinity
  })

// Enough concurrent queries to take every pooled connection, so a stuck one
// left idle in the pool would fail one of them.
const everyConnection = <A, E>(query: Effect.Effect<A, E>) =>
  Effect.all(Array.from({ length: 2 * SETTINGS.poolMax }, () => query), { concurrency: SETTINGS.poolMax })

layer(TargetLive, { excludeTestServices: true })("recovery from a network black hole (pitfall 14)", (it) => {
  it.scoped("a query fails fast, ping turns false, and the same client answers within 2 s of the database's return", () =>
    Effect.gen(function*() {
      const { ping, proxy, query } = yield* throughProxy()
      // Every pooled connection open and idle when the network goes.
      expect(yield* everyConnection(query)).toEqual([1, 1, 1, 1, 1, 1])
      expect(yield* ping).toBe(true)

      yield* proxy.blackhole
      const [failedAfter, result] = yield* Effect.timed(Effect.either(query))
      expect(Either.isLeft(result)).toBe(true)
      expect(Duration.toMillis(failedAfter)).toBeLessThan(4_000)
      const [pingedAfter, up] = yield* Effect.timed(ping)
      expect(up).toBe(false)
      expect(Duration.toMillis(pingedAfter)).toBeLessThan(3_000)

      yield* proxy.restore
      expect(yield* timeToRecover(query)).toBeLessThan(RECOVERY_BOUND_MS)
      expect(yield* everyConnection(query)).toEqual([1, 1, 1, 1, 1, 1])
      expect(yield* ping).toBe(true)
    }), 20_000)

  it.scoped("a blackhole shorter than the timeouts heals within 2 s too: the silenced connections, idle ones included, are dropped", () =>
    Effect.gen(function*() {
      const { ping, proxy, query } = yield* throughProxy()
      expect(yield* everyConnection(query)).toEqual([1, 1, 1, 1, 1, 1])

      yield* proxy.blackhole
      expect(Either.isLeft(yield* Effect.either(query))).toBe(true)
      // Restored at once: the connections that went silent, the one that
      // lost its query and the idle ones, are back in the pool as healthy,
      // and only the client itself can notice they are dead.
      yield* proxy.restore
      expect(yield* timeToRecover(query)).toBeLessThan(RECOVERY_BOUND_MS)
      expect(yield* everyConnection(query)).toEqual([1, 1, 1, 1, 1, 1])
      expect(yield* ping).toBe(true)
    }), 20_000)

  // One connection, so the next query can only get the one the last query
  // used, or a new one if that was retired.
  it.scoped("a connection whose query failed for silence is not handed to the next query", () =>
    Effect.gen(function*() {
      const { proxy, query } = yield* throughProxy({ ...SETTINGS, poolMax: 1 })
      expect(yield* query).toBe(1)

      yield* proxy.blackhole
      // Failed at the statement timeout + 1 s; when pg's own query timeout did
      // it, the query stayed on the connection and the pool handed it out again.
      expect(Either.isLeft(yield* Effect.either(query))).toBe(true)
      yield* proxy.restore
      // The database is back: the next query must not wait behind the lost one.
      expect(yield* Effect.either(query)).toEqual(Either.right(1))
    }), 20_000)

  it.scoped("a connection whose query was interrupted is not handed to the next query", () =>
    Effect.gen(function*() {
      const { proxy, query } = yield* throughProxy({ ...SETTINGS, poolMax: 1 })
      expect(yield* query).toBe(1)

      yield* proxy.blackhole
      // As the request deadline and the readiness probe do: interrupted long
      // before any timeout of its own (and its cancellation cannot reach the server).
      expect(yield* Effect.timeout(query, "300 millis").pipe(Effect.either, Effect.map(Either.isLeft))).toBe(true)
      yield* proxy.restore
      expect(yield* Effect.either(query)).toEqual(Either.right(1))
    }), 20_000)
})
