import { Headers } from "@effect/platform"
import { defaultTeardown } from "@effect/platform/Runtime"
import { NodeRuntime } from "@effect/platform-node"
import { serveStdio } from "@modelcontextprotocol/server/stdio"
import { Config, ConfigError, Console, Effect, Either, Layer, Option, Redacted, Runtime } from "effect"
import { CoreLive } from "@tks/core/live"
import { DatabaseLive } from "@tks/db/client"
import { MigrationsLive } from "@tks/db/migrate"
import { ToolCallers } from "@tks/mcp/authorization"
import { ToolHandlersLive } from "@tks/mcp/handlers/live"
import { ToolDispatcher } from "@tks/mcp/protocol/dispatch"
import { makeMcpServer } from "@tks/mcp/protocol/server"
import { RequestOrigin } from "@tks/domain/request-origin"
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
 * TKS_TOKEN, read before anything is opened: unset or empty, the start stops
 * at once with one line naming it (a redacted setting's own error would only
 * say "<redacted>").
 */
const TokenConfig = Config.option(Config.redacted("TKS_TOKEN")).pipe(
  Config.mapOrFail((token) =>
    Option.isSome(token) && Redacted.value(token.value).trim() !== ""
      ? Either.right(token.value)
      : Either.left(ConfigError.MissingData(["TKS_TOKEN"], "TKS_TOKEN is not set (the access token whose person the tools run as)"))
  )
)

/**
 * Waits until the client is gone: stdin ended or failed, or stdout failed
 * (EPIPE). Watched here rather than through the SDK's transport, which the
 * serving entry owns: without it the process would outlive its client,
 * holding the data directory's lock.
 */
const clientGone = Effect.async<void>((resume) => {
  let gone = false
  const done = () => {
    if (gone) return
    gone = true
    resume(Effect.void)
  }
  process.stdin.once("end", done).once("close", done).once("error", done)
  process.stdout.once("error", done)
  // Input that ended before this was watched has already said so.
  if (process.stdin.readableEnded || process.stdin.destroyed) done()
  return Effect.sync(() => {
    process.stdin.off("end", done).off("close", done).off("error", done)
    process.stdout.off("error", done)
  })
})

/**
 * `pnpm --silent mcp:stdio`: the read-only tools over MCP on stdin/stdout,
 * for an assistant that starts the service as a subprocess. The caller is
 * the person of the access token in TKS_TOKEN (re-read on every call); the
 * database is DATABASE_URL's, or else the embedded one in DATA_DIR, which
 * only one process can open (so not while `pnpm start` uses it). Logs go to
 * stderr. Ends when the client closes stdin, or on SIGTERM/SIGINT.
 */
const serve = (token: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const headers = Headers.fromInput({ authorization: `Bearer ${Redacted.value(token)}` })
    const callers = yield* ToolCallers
    // A token that cannot authenticate stops here, with the reason on stderr, rather than failing every call.
    const actor = yield* callers.authenticate(headers)
    const dispatcher = yield* ToolDispatcher
    const runtime = yield* Effect.runtime<never>()
    // Every call reads the token's person again: a demotion or revocation counts from the next call.
    // The SDK picks the protocol generation from the client's opening message and keeps one server from this factory for the connection.
    const makeServer = () => makeMcpServer(dispatcher, { caller: callers.authenticate(headers), run: Runtime.runPromise(runtime) })
    yield* Effect.acquireRelease(
      Effect.sync(() => serveStdio(makeServer, { onerror: (error) => console.error(`MCP over stdio: ${error.message}`) })),
      (handle) => Effect.promise(() => handle.close()).pipe(Effect.ignore)
    )
    yield* Effect.logInfo("MCP over stdio: ready").pipe(Effect.annotateLogs({ organizationId: actor.organizationId }))
    yield* clientGone
    yield* Console.error("MCP over stdio: the client closed the connection")
  }).pipe(Effect.scoped)

const Database = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))
const Tools = Layer.mergeAll(ToolDispatcher.Default, ToolCallers.Default).pipe(
  Layer.provide(ToolHandlersLive),
  Layer.provide(CoreLive),
  Layer.provide(AdaptersLive),
  Layer.provide(Database),
  // Logging first, so the tracing layer's own start-up line is already formatted.
  Layer.provideMerge(TracingLive.pipe(Layer.provideMerge(loggingOn("stderr"))))
)

const main = Effect.gen(function*() {
  const token = yield* TokenConfig
  // No request behind a call: the origin names only the transport.
  yield* serve(token).pipe(
    Effect.provideService(RequestOrigin, { transport: "mcp", requestId: null, clientIp: null, userAgent: null }),
    Effect.provide(Tools)
  )
})

main.pipe(
  Effect.tapErrorCause(reportStartupFailure),
  withoutFiberMetrics,
  NodeRuntime.runMain({
    disableErrorReporting: true,
    disablePrettyLogger: true,
    // When the client is gone (end of stdin) or on SIGTERM/SIGINT the
    // layers above are closed in order (the tools, the database, then the
    // data directory's lock) and the process exits at once: the goal is
    // within 1 s, what a client gives a server it stops (measured: 0.3 to
    // 0.7 s on a loaded machine). The explicit exit is so that a handle a
    // library leaves open (a timer, a socket) cannot keep it alive after a
    // clean end of input.
    teardown: (exit, onExit) => defaultTeardown(exit, (code) => {
      onExit(code)
      process.exit(code)
    })
  })
)
