import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Runs `make` once per test database and shares its result among the tests
 * on it. Each test file builds its own database, so this is "once per file";
 * the memo is keyed on the database's client rather than kept in the module
 * because test files share modules (Vitest runs them without isolation), and
 * a value made on the previous file's database would name rows, tokens and a
 * closed pool that this file's server does not have.
 */
export const once = <A, E, R>(make: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | SqlClient.SqlClient> => {
  const made = new WeakMap<SqlClient.SqlClient, A>()
  return Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const known = made.get(sql)
    return known !== undefined ? Effect.succeed(known) : Effect.tap(make, (value) => Effect.sync(() => made.set(sql, value)))
  })
}
