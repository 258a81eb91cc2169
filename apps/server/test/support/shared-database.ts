import { Reactivity } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Redacted } from "effect"
import { clientContext, makePgClient } from "@tks/db/client"
import { runMigrations } from "@tks/db/migrate"
import { provisionMigratedTestDatabase, TEST_POOL } from "@tks/db/test-database"

/** The URL of the test's database, for processes the test starts (DATABASE_URL). */
export class SharedDatabaseUrl extends Context.Tag("@tks/server/test/SharedDatabaseUrl")<SharedDatabaseUrl, string>() {}

/**
 * A fresh migrated database that other processes can reach too: a new
 * database on TEST_DATABASE_URL's server, or the embedded one in this
 * process served over its socket (with room for several processes' pools).
 * Provides SqlClient for the test itself and the URL to hand to children.
 */
export const SharedDatabaseLive: Layer.Layer<SqlClient.SqlClient | SharedDatabaseUrl, unknown> = Layer.scopedContext(
  Effect.gen(function*() {
    const url = yield* provisionMigratedTestDatabase(48)
    const client = yield* makePgClient(url, TEST_POOL)
    const context = clientContext(client)
    yield* runMigrations().pipe(Effect.provide(context))
    return Context.add(context, SharedDatabaseUrl, Redacted.value(url))
  })
).pipe(Layer.provide(Reactivity.layer))
