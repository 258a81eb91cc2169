import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Option, Schedule } from "effect"
import { DatabaseConfig } from "./config.js"

/**
 * PGlite runs no autovacuum, so the embedded database would never gather
 * planner statistics and list queries would plan as if every table were
 * empty. On the embedded database only: ANALYZE at start, then every hour,
 * in a background fiber that ends with the service. PostgreSQL keeps its own.
 */
export const EmbeddedMaintenanceLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* DatabaseConfig
    if (Option.isSome(config.url)) return
    const sql = yield* SqlClient.SqlClient
    const analyze = sql`ANALYZE`.pipe(
      Effect.timed,
      Effect.tap(([took]) => Effect.logDebug(`embedded database analyzed in ${Duration.format(took)}`)),
      Effect.catchAll((error) => Effect.logWarning("embedded database ANALYZE failed", error))
    )
    yield* Effect.forkScoped(Effect.repeat(analyze, Schedule.spaced("1 hour")))
  })
)
