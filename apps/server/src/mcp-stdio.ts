import { Headers } from "@effect/platform"
import { NodeRuntime } from "@effect/platform-node"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { Config, Console, Effect, Layer, Redacted, Runtime } from "effect"
import { CoreLive } from "@tks/core/live"
import { DatabaseLive } from "@tks/db/client"
import { MigrationsLive } from "@tks/db/migrate"
import { ToolCallers } from "@tks/mcp/authorization"
import { ToolHandlersLive } from "@tks/mcp/handlers/live"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import { makeMcpServer } from "@tks/mcp/protocol/server"
import { AdaptersLive } from "./adapters.js"
import { loggingOn } from "./observability/logging.js"
import { TracingLive } from "./observability/tracing.js"
import { reportStartupFailure } from "./startup/failure.js"
import { withoutFiberMetrics } from "./observability/fiber-metrics.js"

// stdout carries the MCP messages and nothing else: anything that would print there prints on stderr.
console.log = console.error
console.info = console.error
console.debug = console.error

/**
 * `pnpm --silent mcp:stdio`: the read-only tools over MCP on stdin/stdout,
 * for an assistant that starts the service as a subprocess. The caller is
 * the person of the access token in TKS_TOKEN (re-read on every call); the
 * database is DATABASE_URL's, or else the embedded one in DATA_DIR, which
 * only one process can open (so not while `pnpm start` uses it). Logs go to
 * stderr. Ends when the client closes stdin.
 */
const main = Effect.gen(function*() {
  const token = yield* Config.redacted("TKS_TOKEN").pipe(
    Config.withDescription("the access token whose person the tools run as")
  )
  const headers = Headers.fromInput({ authorization: `Bearer ${Redacted.value(token)}` })
  const callers = yield* ToolCallers
  // A token that cannot authenticate stops here, with the reason on stderr, rather than failing every call.
  const actor = yield* callers.authenticate(headers)
  const dispatcher = yield* ToolDispatcher
  const runtime = yield* Effect.runtime<never>()
  // Every call reads the token's person again: a demotion or revocation counts from the next call.
  const server = makeMcpServer(dispatcher, { caller: callers.authenticate(headers), run: Runtime.runPromise(runtime) })
  const closed = Effect.async<void>((resume) => {
    server.onclose = () => resume(Effect.void)
  })
  yield* Effect.promise(() => server.connect(new StdioServerTransport()))
  yield* Effect.logInfo("MCP over stdio: ready").pipe(Effect.annotateLogs({ organizationId: actor.organizationId }))
  yield* closed
  yield* Console.error("MCP over stdio: the client closed the connection")
})

const Database = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))
const Tools = Layer.mergeAll(ToolDispatcher.Default, ToolCallers.Default).pipe(
  Layer.provide(ToolHandlersLive),
  Layer.provide(CoreLive),
  Layer.provide(AdaptersLive),
  Layer.provide(Database),
  // Logging first, so the tracing layer's own start-up line is already formatted.
  Layer.provideMerge(TracingLive.pipe(Layer.provideMerge(loggingOn("stderr"))))
)

main.pipe(
  Effect.provide(Tools),
  Effect.tapErrorCause(reportStartupFailure),
  withoutFiberMetrics,
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
