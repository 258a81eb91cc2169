import { Command } from "@effect/cli"
import { Console, Effect } from "effect"
import { DatabaseLive } from "@tks/db/client"
import { runMigrations } from "@tks/db/migrate"

export const migrateCommand = Command.make("migrate", {}, () =>
  runMigrations().pipe(
    Effect.flatMap((applied) =>
      Console.log(JSON.stringify({ applied: applied.map(([id, name]) => `${id}_${name}`) }, null, 2))
    ),
    Effect.provide(DatabaseLive)
  )).pipe(
    Command.withDescription("Apply pending migrations to DATABASE_URL, or to the embedded database in DATA_DIR")
  )
