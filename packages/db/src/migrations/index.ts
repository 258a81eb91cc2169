import type { Effect } from "effect"
import type { SqlClient } from "@effect/sql"

/** Forward-only, append-only migrations, keyed `<id>_<name>` as the Migrator expects. */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {}
