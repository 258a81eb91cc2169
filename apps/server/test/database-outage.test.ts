import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import { PING_TIMEOUT } from "@tks/db/health"
import { DatabaseProxy, OUTAGE_POOL, OutageServerLive } from "./support/outage.js"
import { importFixture, raw } from "./support/server.js"

const fixture: OrgFixtureInput = {
  organization: { name: "Outage Org" },
  people: [{ key: "ada", name: "Ada Admin", email: "ada@outage.test", role: "admin", tokenScopes: [] }]
}

let imported: { readonly token: string; readonly userId: string } | undefined
/** The fixture is imported once for the file (its server has its own database). */
const setup = Effect.suspend(() =>
  imported !== undefined ? Effect.succeed(imported) : importFixture(fixture).pipe(
    Effect.map((result) => ({ token: result.tokens.ada!, userId: result.ids.people.ada! })),
    Effect.tap((value) => Effect.sync(() => (imported = value)))
  )
)

/** No call may hang: each answers within this, whatever the database does. */
const CALL_LIMIT = Duration.seconds(8)

/** A GET that must answer within CALL_LIMIT; the response and how long it took. */
const get = (path: string, token?: string) =>
  raw("GET", path, { token }).pipe(
    Effect.timed,
    Effect.timeoutFail({
      duration: CALL_LIMIT,
      onTimeout: () => new Error(`GET ${path} did not answer within ${Duration.format(CALL_LIMIT)}`)
    }),
    Effect.orDie,
    Effect.map(([elapsed, response]) => ({ ...response, ms: Duration.toMillis(elapsed) }))
  )

// More concurrent requests than the pool has connections, so some wait for one.
const crowd = (token: string) =>
  Effect.all(Array.from({ length: 2 * OUTAGE_POOL.poolMax }, () => get("/v1/me", token)), { concurrency: "unbounded" })

const expectHealthy = (token: string, userId: string) =>
  Effect.gen(function*() {
    // Fills the pool, so the outage finds every connection open and idle.
    const many = yield* crowd(token)
    expect(many.map((response) => response.status)).toEqual(many.map(() => 200))
    const ready = yield* get("/ready")
    expect(ready.status).toBe(200)
    expect(ready.json).toEqual({ status: "ready" })
    const me = yield* get("/v1/me", token)
    expect(me.status).toBe(200)
    expect(me.json).toMatchObject({ id: userId, name: "Ada Admin", role: "admin" })
  })

const expectUnavailable = (token: string) =>
  Effect.gen(function*() {
    const health = yield* get("/health")
    expect(health.status).toBe(200)

    const ready = yield* get("/ready")
    expect(ready.status).toBe(503)
    expect(ready.headers.get("content-type")).toContain("application/json")
    expect(ready.json).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) })

    const me = yield* get("/v1/me", token)
    expect(me.status).toBe(503)
    expect(me.headers.get("content-type")).toContain("application/json")
    expect(me.json).toEqual({ _tag: "ServiceUnavailable", code: "SERVICE_UNAVAILABLE", message: expect.any(String), requestId: expect.any(String) })

    // Requests queued behind a lost pool fail fast too, all of them.
    const many = yield* crowd(token)
    expect(many.map((response) => response.status)).toEqual(many.map(() => 503))
    // The readiness probe answers at its own deadline, not at the call limit.
    expect(ready.ms).toBeLessThan(Duration.toMillis(PING_TIMEOUT) + 2_000)
  })

/**
 * Polls (30 rounds, 500 ms apart) until /ready answers 200 and then a crowd of
 * /v1/me requests, more than the pool has connections, all answer 200, on
 * this same server and pool. A connection the outage killed without a reset
 * can cost a request or two a 503 (after the query timeout) before it is
 * dropped; every answer on the way must be 200 or 503.
 */
const recovery = (token: string) =>
  Effect.gen(function*() {
    const started = Date.now()
    const statuses: Array<number> = []
    for (let round = 1; round <= 30; round++) {
      const ready = yield* get("/ready")
      statuses.push(ready.status)
      if (ready.status === 200) {
        const many = (yield* crowd(token)).map((response) => response.status)
        statuses.push(...many)
        if (many.every((status) => status === 200)) return { ms: Date.now() - started, statuses }
      }
      yield* Effect.sleep("500 millis")
    }
    return { ms: Infinity, statuses }
  })

const expectRecovered = (token: string, userId: string) =>
  Effect.gen(function*() {
    const { ms, statuses } = yield* recovery(token)
    expect(ms).toBeLessThan(Infinity)
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
    // And it stays so: the whole pool answers.
    yield* expectHealthy(token, userId)
  })

layer(OutageServerLive, { excludeTestServices: true })("database outage (DESIGN pitfall 14)", (it) => {
  it.effect(
    "while the network to the database is a black hole /ready and requests answer 503 fast; after it the same server recovers by itself",
    () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const proxy = yield* DatabaseProxy
        yield* expectHealthy(token, userId)

        yield* proxy.blackhole
        yield* expectUnavailable(token)

        yield* proxy.restore
        yield* expectRecovered(token, userId)
      }),
    60_000
  )

  it.effect(
    "while the database refuses connections /ready and requests answer 503 fast; once it listens again the same server recovers by itself",
    () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const proxy = yield* DatabaseProxy
        yield* expectHealthy(token, userId)

        yield* proxy.refuse
        yield* expectUnavailable(token)

        yield* proxy.restore
        yield* expectRecovered(token, userId)
      }),
    60_000
  )

  it.effect(
    "a black hole shorter than the timeouts heals too: the connections it silenced, idle or mid-query, leave the pool",
    () =>
      Effect.gen(function*() {
        const { token, userId } = yield* setup
        const proxy = yield* DatabaseProxy
        yield* expectHealthy(token, userId)

        yield* proxy.blackhole
        const me = yield* get("/v1/me", token)
        expect(me.status).toBe(503)
        expect(me.json).toEqual({ _tag: "ServiceUnavailable", code: "SERVICE_UNAVAILABLE", message: expect.any(String), requestId: expect.any(String) })
        // Restored at once: the connection that went silent looks healthy to the pool.
        yield* proxy.restore
        yield* expectRecovered(token, userId)
      }),
    60_000
  )
})
