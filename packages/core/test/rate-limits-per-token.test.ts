import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Either, Layer, Logger, LogLevel } from "effect"
import { clientContext, embeddedConnectionLimit, makePgClient } from "@tks/db/client"
import { runMigrations } from "@tks/db/migrate"
import { provisionTestDatabase, TEST_POOL } from "@tks/db/test-database"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { Authenticator } from "../src/auth/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"

const LIMIT = 25

/** Two server processes' authenticators, each with its own pool, and the test's own (to import and look). */
class Processes extends Context.Tag("test/PerTokenProcesses")<Processes, {
  readonly a: Authenticator
  readonly b: Authenticator
  readonly importer: FixtureImporter
  readonly own: Authenticator
  readonly sql: SqlClient.SqlClient
}>() {}

const ProcessesLive = Layer.scoped(
  Processes,
  Effect.gen(function*() {
    const url = yield* provisionTestDatabase(embeddedConnectionLimit(3 * TEST_POOL.poolMax))
    const pool = () => makePgClient(url, TEST_POOL).pipe(Effect.map(clientContext))
    const [one, two, three] = [yield* pool(), yield* pool(), yield* pool()]
    yield* runMigrations().pipe(Effect.provide(three))
    const authenticator = (context: Context.Context<SqlClient.SqlClient>) =>
      Layer.build(Authenticator.Default).pipe(Effect.map(Context.get(Authenticator)), Effect.provide(context))
    const importer = yield* Layer.build(FixtureImporter.Default).pipe(Effect.map(Context.get(FixtureImporter)), Effect.provide(three))
    return {
      a: yield* authenticator(one),
      b: yield* authenticator(two),
      own: yield* authenticator(three),
      importer,
      sql: Context.get(three, SqlClient.SqlClient)
    }
  })
).pipe(
  Layer.provide(Reactivity.layer),
  Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["RATE_LIMIT_PER_MINUTE", String(LIMIT)]])))),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const setup = Effect.gen(function*() {
  const { importer } = yield* Processes
  return yield* Effect.orDie(importer.importOrganization({
    organization: { name: "Per-token Org" },
    people: [
      { key: "ann", name: "Ann", email: "ann@per-token.test", role: "admin", tokenScopes: [] },
      { key: "gone", name: "Gone", email: "gone@per-token.test", role: "viewer", status: "DEACTIVATED", tokenScopes: [] }
    ]
  }))
}).pipe(Effect.cached, Effect.runSync)

const freshToken = Effect.gen(function*() {
  const { own } = yield* Processes
  const org = yield* setup
  return yield* Effect.orDie(own.issue(Caller.system("test"), {
    organizationId: OrganizationId.make(org.organizationId),
    userId: UserId.make(org.ids.people["ann"]!),
    scopes: []
  }))
})

const counterOf = (tokenId: string) =>
  Processes.pipe(
    Effect.flatMap(({ sql }) => sql<{ hits: ReadonlyArray<number> }>`SELECT hits FROM rate_limit_counters WHERE rule = 'requests' AND subject = ${tokenId}`),
    Effect.map((rows) => rows[0]?.hits),
    Effect.orDie
  )

const databaseMinute = Processes.pipe(
  Effect.flatMap(({ sql }) => sql<{ minute: number }>`SELECT floor(extract(epoch FROM now()) / 60)::float8 AS minute`),
  Effect.map((rows) => rows[0]!.minute),
  Effect.orDie
)

/** Runs `attempt` again (with its own fresh token) when the database's minute turned during it, so the outcome is one window's. */
const inOneMinute = <A, E, R>(attempt: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    for (;;) {
      const before = yield* databaseMinute
      const outcome = yield* attempt
      if ((yield* databaseMinute) === before) return outcome
    }
  })

layer(ProcessesLive)("the per-token limit, counted by the authenticating statement", (it) => {
  it.effect("60 concurrent authentications of one token through two processes at a limit of 25 grant exactly 25, each with its own count left; the rest are TooManyRequests and are not counted", () =>
    Effect.gen(function*() {
      const { a, b } = yield* Processes
      const { id, results } = yield* inOneMinute(Effect.gen(function*() {
        const { id, token } = yield* freshToken
        const results = yield* Effect.all(
          Array.from({ length: 60 }, (_, i) => Effect.either((i % 2 === 0 ? a : b).authenticateRequest(token))),
          { concurrency: "unbounded" }
        )
        return { id, results }
      }))
      const granted = results.filter(Either.isRight).map((r) => r.right)
      const refused = results.filter(Either.isLeft).map((r) => r.left)
      expect(granted.map((g) => g.rateLimit.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: LIMIT }, (_, i) => i))
      expect(granted.every((g) => g.actor.tokenId === id && g.rateLimit.limit === LIMIT)).toBe(true)
      expect(refused).toHaveLength(60 - LIMIT)
      for (const error of refused) {
        expect(error).toBeInstanceOf(TooManyRequests)
        expect(error).toMatchObject({ code: "RATE_LIMITED", message: "Too many requests for this access token", limit: LIMIT })
        expect((error as TooManyRequests).retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect((error as TooManyRequests).retryAfterSeconds).toBeLessThanOrEqual(60)
      }
      expect(yield* counterOf(id)).toEqual([LIMIT])
    }))

  it.effect("tokens that do not authenticate (unknown, revoked, a departed person's) are Unauthorized and count nothing", () =>
    Effect.gen(function*() {
      const { a, own, sql } = yield* Processes
      const org = yield* setup
      const revoked = yield* freshToken
      yield* Effect.orDie(own.revoke(Caller.system("test"), AccessTokenId.make(revoked.id)))
      const counters = sql<{ n: number }>`SELECT count(*)::int AS n FROM rate_limit_counters`.pipe(Effect.map((rows) => rows[0]!.n), Effect.orDie)
      const before = yield* counters
      for (const token of ["tks_never-issued", revoked.token, org.tokens["gone"]!]) {
        const refused = yield* Effect.flip(a.authenticateRequest(token))
        expect(refused).toMatchObject({ _tag: "Unauthorized" })
      }
      expect(yield* counters).toBe(before)
      expect(yield* counterOf(revoked.id)).toBeUndefined()
    }))

  it.effect("authenticate (the tools' entry) counts the call the same way", () =>
    Effect.gen(function*() {
      const { a, b } = yield* Processes
      const { id } = yield* inOneMinute(Effect.gen(function*() {
        const { id, token } = yield* freshToken
        yield* Effect.orDie(a.authenticate(token))
        yield* Effect.orDie(b.authenticate(token))
        return { id }
      }))
      expect(yield* counterOf(id)).toEqual([2])
    }))
})
