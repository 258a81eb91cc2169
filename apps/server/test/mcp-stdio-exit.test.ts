import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer, Logger, LogLevel } from "effect"
import { acme, acmeCallers } from "@tks/core/testing/organizations"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { DatabaseLive } from "@tks/db/client"
import { LOCK_FILE } from "@tks/db/data-dir-lock"
import { MigrationsLive } from "@tks/db/migrate"
import { repositoryRoot } from "./support/server-process.js"

// Settings of the environment running the tests that must not reach the child.
const notInherited = ["NODE_ENV", "DATABASE_URL", "DATA_DIR", "LOG_LEVEL", "LOG_FORMAT", "TKS_TOKEN"]
const inherited = () =>
  Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] =>
      entry[1] !== undefined && !notInherited.includes(entry[0]) && !entry[0].startsWith("OTEL_")
    )
  )

/** What `pnpm build` makes, in a directory of this file's own, and an embedded database with a viewer's token. */
class Built extends Context.Tag("mcp-stdio-exit/Built")<Built, {
  readonly entry: string
  readonly dir: string
  readonly dataDir: string
  readonly token: string
}>() {}

const build = (outdir: string) =>
  Effect.async<void, Error>((resume) => {
    const child = execFile(process.execPath, ["scripts/build.mjs", outdir], { cwd: repositoryRoot }, (error) =>
      resume(error === null ? Effect.void : Effect.fail(error))
    )
    return Effect.sync(() => child.kill())
  })

/** The acme organization imported into `dataDir`; the database is closed (and its lock released) before the stdio server opens it. */
const seed = (dataDir: string) =>
  FixtureImporter.pipe(
    Effect.flatMap((importer) => importer.importOrganization(acme)),
    Effect.map((result) => result.tokens[acmeCallers.viewer]!),
    Effect.provide(FixtureImporter.Default.pipe(
      Layer.provideMerge(MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))),
      Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]])))),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )),
    Effect.scoped
  )

const BuiltLive = Layer.scoped(
  Built,
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "tks-stdio-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const dataDir = join(dir, "data")
    const [, token] = yield* Effect.all([build(join(dir, "dist")), seed(dataDir)], { concurrency: 2 })
    return { entry: join(dir, "dist", "mcp-stdio.mjs"), dir, dataDir, token }
  }).pipe(Effect.orDie)
)

interface Stdio {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves when the process has exited. */
  readonly exited: Effect.Effect<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

/** `node dist/mcp-stdio.mjs`, as the README starts it, with stdin, stdout and stderr piped; killed with the scope if still running. */
const startStdio = (entry: string, env: Record<string, string>) =>
  Effect.gen(function*() {
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [entry], {
          cwd: repositoryRoot,
          env: { ...inherited(), DATABASE_URL: "", NO_COLOR: "1", ...env },
          stdio: ["pipe", "pipe", "pipe"]
        })
      ),
      (child) => Effect.sync(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"))
    )
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on("exit", (code, signal) => done({ code, signal }))
    )
    const stdio: Stdio = { child, stdout: () => stdout, stderr: () => stderr, exited: Effect.promise(() => exit) }
    return stdio
  })

/** Polls until `done` holds, or fails once the process has exited or `seconds` have passed. */
const waitUntil = (stdio: Stdio, what: string, done: () => boolean, seconds = 120) =>
  Effect.gen(function*() {
    for (let waited = 0; waited < seconds * 10; waited++) {
      if (done()) return
      if (stdio.child.exitCode !== null || stdio.child.signalCode !== null) break
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.dieMessage(`${what} did not happen; stderr:\n${stdio.stderr()}`)
  })

/** Started on the seeded database, answering an MCP initialize: a client is connected. */
const connected = (built: Context.Tag.Service<typeof Built>) =>
  Effect.gen(function*() {
    const stdio = yield* startStdio(built.entry, { DATA_DIR: built.dataDir, TKS_TOKEN: built.token })
    yield* waitUntil(stdio, "MCP over stdio: ready", () => stdio.stderr().includes("MCP over stdio: ready"))
    expect(existsSync(join(built.dataDir, LOCK_FILE)), "the data directory is locked while it runs").toBe(true)
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } }
    stdio.child.stdin?.write(`${JSON.stringify(initialize)}\n`)
    yield* waitUntil(stdio, "the answer to initialize", () => stdio.stdout().includes(`"id":1`), 30)
    return stdio
  })

/**
 * The goal is 1 s (what a client gives a server it stops); the bound is 5 s
 * so a loaded machine does not fail the test, while a process that does not
 * end on its own (it used to wait forever) still does.
 */
const EXIT_BOUND_MS = 5_000

/** Waits for the exit (longer than the bound, so a late exit is reported as late rather than as a timeout) and measures it. */
const exitAfter = (stdio: Stdio, started: number) =>
  stdio.exited.pipe(
    Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(`still running 30 s later; stderr:\n${stdio.stderr()}`) }),
    Effect.map((exit) => ({ ...exit, ms: Date.now() - started })),
    Effect.orDie
  )

layer(BuiltLive, { timeout: "6 minutes", excludeTestServices: true })("the stdio server exits within 1 s of the end of its input or SIGTERM, releasing the data directory", (it) => {
  it.scoped("closing stdin ends the process (exit code 0) and removes the data directory's lock", () =>
    Effect.gen(function*() {
      const built = yield* Built
      const stdio = yield* connected(built)
      const started = Date.now()
      stdio.child.stdin?.end()
      const exit = yield* exitAfter(stdio, started)
      expect(exit.ms, stdio.stderr()).toBeLessThan(EXIT_BOUND_MS)
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null })
      expect(existsSync(join(built.dataDir, LOCK_FILE))).toBe(false)
      expect(stdio.stderr()).toContain("MCP over stdio: the client closed the connection")
    }), 240_000)

  it.scoped("SIGTERM ends the process (exit code 0) and removes the data directory's lock", () =>
    Effect.gen(function*() {
      const built = yield* Built
      const stdio = yield* connected(built)
      const started = Date.now()
      stdio.child.kill("SIGTERM")
      const exit = yield* exitAfter(stdio, started)
      expect(exit.ms, stdio.stderr()).toBeLessThan(EXIT_BOUND_MS)
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null })
      expect(existsSync(join(built.dataDir, LOCK_FILE))).toBe(false)
    }), 240_000)

  it.scoped("a missing TKS_TOKEN is one line naming it as not set, exit code 1, before the database is opened", () =>
    Effect.gen(function*() {
      const built = yield* Built
      for (const env of [{}, { TKS_TOKEN: "" }]) {
        const dataDir = join(built.dir, `never-opened-${Object.keys(env).length}`)
        const stdio = yield* startStdio(built.entry, { ...env, DATA_DIR: dataDir })
        const exit = yield* exitAfter(stdio, Date.now())
        expect(exit.code, stdio.stderr()).toBe(1)
        expect(stdio.stderr().split("\n").filter((line) => line.trim() !== "")).toEqual([
          "Cannot start the service: TKS_TOKEN is not set (the access token whose person the tools run as)"
        ])
        expect(stdio.stdout()).toBe("")
        expect(existsSync(dataDir)).toBe(false)
      }
    }), 120_000)
})
