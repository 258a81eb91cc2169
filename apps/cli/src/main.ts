import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { migrateCommand } from "./commands/migrate.js"
import { orgCommand } from "./commands/org.js"
import { seedCommand } from "./commands/seed.js"
import { tokenCommand } from "./commands/token.js"
import { reportFailure } from "./report.js"

const tks = Command.make("tks").pipe(
  Command.withDescription("Operator commands of the Training and Knowledge Service"),
  Command.withSubcommands([migrateCommand, orgCommand, tokenCommand, seedCommand])
)

const cli = Command.run(tks, { name: "tks", version: "0.1.0" })

// stdout carries only a command's result (JSON), so logs go to stderr.
const StderrLogger = Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))

cli(process.argv).pipe(
  Effect.tapErrorCause(reportFailure),
  Effect.provide(Layer.merge(NodeContext.layer, StderrLogger)),
  (program) => NodeRuntime.runMain(program, { disableErrorReporting: true, disablePrettyLogger: true })
)
