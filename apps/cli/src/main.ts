import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { RequestOrigin } from "@tks/domain/request-origin"
import { auditCommand } from "./commands/audit.js"
import { directoryCommand } from "./commands/directory.js"
import { migrateCommand } from "./commands/migrate.js"
import { orgCommand } from "./commands/org.js"
import { seedCommand } from "./commands/seed.js"
import { tokenCommand } from "./commands/token.js"
import { CliLoggingLive } from "./logging.js"
import { reportFailure } from "./report.js"

const tks = Command.make("tks").pipe(
  Command.withDescription("Operator commands of the Training and Knowledge Service"),
  Command.withSubcommands([migrateCommand, orgCommand, tokenCommand, directoryCommand, seedCommand, auditCommand])
)

const cli = Command.run(tks, { name: "tks", version: "0.1.0" })

cli(process.argv).pipe(
  // The audit rows of the commands' acts say they came from here.
  Effect.provideService(RequestOrigin, { transport: "cli", requestId: null, clientIp: null, userAgent: "tks-cli" }),
  Effect.provide(Layer.merge(NodeContext.layer, CliLoggingLive)),
  // After the layers: a bad LOG_FORMAT is reported as any other failure.
  Effect.tapErrorCause(reportFailure),
  (program) => NodeRuntime.runMain(program, { disableErrorReporting: true, disablePrettyLogger: true })
)
