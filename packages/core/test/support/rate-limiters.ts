import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Logger, LogLevel } from "effect"
import { clientContext, embeddedConnectionLimit, makePgClient } from "@tks/db/client"
import { runMigrations } from "@tks/db/migrate"
import { provisionTestDatabase, TEST_POOL } from "@tks/db/test-database"
import type { SqlError } from "@effect/sql/SqlError"
import type { TooManyRequests } from "@tks/domain/rate-limit"
import { RateLimitRepo } from "../../src/rate-limits/repo.js"
import { makeRateLimiter } from "../../src/rate-limits/service.js"

type Limiter = Effect.Effect.Success<typeof makeRateLimiter>

/** Two server processes' rate limiters, each with its own pool, over one migrated test database. */
export class TwoProcesses extends Context.Tag("test/TwoProcesses")<TwoProcesses, {
  readonly a: Limiter
  readonly b: Limiter
  /** A third connection pool, to look at the counters table. */
  readonly sql: SqlClient.SqlClient
}>() {}

export const twoProcesses = () =>
  Layer.scoped(
    TwoProcesses,
    Effect.gen(function*() {
      const url = yield* provisionTestDatabase(embeddedConnectionLimit(3 * TEST_POOL.poolMax))
      const process = () =>
        makePgClient(url, TEST_POOL).pipe(Effect.map(clientContext))
      const [one, two, three] = [yield* process(), yield* process(), yield* process()]
      yield* runMigrations().pipe(Effect.provide(three))
      const limiter = (context: Context.Context<SqlClient.SqlClient>) =>
        makeRateLimiter.pipe(
          Effect.provide(RateLimitRepo.Default),
          Effect.provide(context)
        )
      return { a: yield* limiter(one), b: yield* limiter(two), sql: Context.get(three, SqlClient.SqlClient) }
    })
  ).pipe(Layer.provide(Reactivity.layer), Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)))

/** A call whose only failure is a rate-limit refusal (a database error is a defect here). */
export const orDieOnSql = <A, R>(call: Effect.Effect<A, TooManyRequests | SqlError, R>) => Effect.catchTag(call, "SqlError", Effect.die)

/** The TooManyRequests a call fails with. */
export const refusalOf = <A, R>(call: Effect.Effect<A, TooManyRequests | SqlError, R>) => Effect.flip(orDieOnSql(call))
