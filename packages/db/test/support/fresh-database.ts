import { Reactivity } from "@effect/experimental"
import { Effect } from "effect"
import { clientContext, embeddedConnectionLimit, makePgClient } from "../../src/client.js"
import type { PoolSettings } from "../../src/config.js"
import { provisionTestDatabase, TEST_POOL } from "../../src/test-database.js"

/** A client on a brand-new, empty database (no migrations), for the current scope. */
export const freshDatabase = (pool: Partial<PoolSettings> = {}) =>
  Effect.gen(function*() {
    const settings = { ...TEST_POOL, ...pool }
    const url = yield* provisionTestDatabase(embeddedConnectionLimit(settings.poolMax))
    const client = yield* makePgClient(url, settings)
    return clientContext(client)
  }).pipe(Effect.provide(Reactivity.layer))
