import { Command } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { seedDemoIfEmptyAs } from "@tks/core/demo/seed"
import { Caller } from "@tks/domain/caller"
import { CliServices } from "../database.js"

export const seedCommand = Command.make("seed", {}, () =>
  seedDemoIfEmptyAs(Caller.system("cli")).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.logWarning("The database already has an organization; the demo was not imported"),
      onSome: (result) => Console.log(JSON.stringify(result, null, 2))
    })),
    Effect.provide(CliServices)
  )).pipe(Command.withDescription("Import the demo organization (Acme Logistics) when the database has no organization"))
