import { SqlClient } from "@effect/sql"
import { Duration, Effect } from "effect"

export const PING_TIMEOUT = Duration.seconds(2)

/** Readiness of the database, for the server's `/ready`. */
export class DatabaseHealth extends Effect.Service<DatabaseHealth>()("@tks/db/DatabaseHealth", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** True when `SELECT 1` answers within PING_TIMEOUT; never fails. */
    const ping: Effect.Effect<boolean> = sql`SELECT 1`.pipe(
      // Answer at the deadline: interrupting the query waits for its
      // cancellation, which itself waits on a dead network.
      Effect.disconnect,
      Effect.timeout(PING_TIMEOUT),
      Effect.as(true),
      Effect.catchAllCause(() => Effect.succeed(false))
    )
    return { ping } as const
  })
}) {}
