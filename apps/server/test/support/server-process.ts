import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { Duration, Effect } from "effect"

/** The checkout that holds this file; the server under test is its own. */
export const repositoryRoot = resolve(import.meta.dirname, "../../../..")

/** A port no one listens on right now (the OS picks it). */
export const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen({ port: 0, host: "127.0.0.1" }, () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** Holds `port` on 127.0.0.1 for the scope, as another program would. */
export const occupyPort = (port: number) =>
  Effect.acquireRelease(
    Effect.async<ReturnType<typeof createServer>>((resume) => {
      const server = createServer()
      server.listen({ port, host: "127.0.0.1" }, () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )

// Settings of the environment running the tests that must not leak into the server under test.
const notInherited = [
  "NODE_ENV", "PORT", "HOST", "METRICS_PORT", "METRICS_HOST", "PUBLIC_URL", "APP_URL", "SEED_DEMO", "LOG_LEVEL", "LOG_FORMAT", "DATABASE_URL", "DATA_DIR"
]

export interface ServerProcess {
  readonly port: number
  /** A fresh directory, removed with the scope; DATA_DIR is `<dir>/data` unless the env sets it. */
  readonly dir: string
  readonly dataDir: string
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Effect.Effect<number | null>
}

/**
 * Starts `node <entry>` (default: the TypeScript entry through tsx, as
 * `npm start` does) from the repository root on a free port and a fresh
 * embedded database in a temporary DATA_DIR. The process is killed and the
 * directory removed when the scope closes.
 */
export const startServerProcess = (
  env: Record<string, string> = {},
  options: {
    readonly args?: ReadonlyArray<string>
    readonly port?: number
    /** Runs before the process starts, given its DATA_DIR (e.g. to leave files from an earlier life). */
    readonly prepare?: (dataDir: string) => void
  } = {}
) =>
  Effect.gen(function*() {
    const port = options.port ?? (yield* freePort)
    const dir = mkdtempSync(join(tmpdir(), "tks-server-"))
    const dataDir = env.DATA_DIR ?? join(dir, "data")
    const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !notInherited.includes(name) && !name.startsWith("OTEL_")))
    const args = options.args ?? ["--import", "tsx", "apps/server/src/main.ts"]
    options.prepare?.(dataDir)
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [...args], {
          cwd: repositoryRoot,
          env: { ...base, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", NO_COLOR: "1", ...env },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      (child) =>
        Effect.sync(() => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
          rmSync(dir, { recursive: true, force: true })
        })
    )
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    const exitPromise = new Promise<number | null>((done) => child.on("close", (code) => done(code)))
    const server: ServerProcess = {
      port,
      dir,
      dataDir,
      child,
      stdout: () => stdout,
      stderr: () => stderr,
      exited: Effect.promise(() => exitPromise)
    }
    return server
  })

const readyStatus = (port: number) =>
  Effect.promise(() =>
    fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0)
  )

/** Polls /ready until it answers 200 (true), or the process exits first (false). */
export const waitReady = (server: ServerProcess) =>
  Effect.gen(function*() {
    while (server.child.exitCode === null && server.child.signalCode === null) {
      if ((yield* readyStatus(server.port)) === 200) return true
      yield* Effect.sleep("250 millis")
    }
    return false
  })

/** SIGTERM, then the exit code. */
export const stop = (server: ServerProcess) =>
  Effect.sync(() => server.child.kill("SIGTERM")).pipe(Effect.zipRight(server.exited))

/** The lines a process wrote, without the empty ones. */
export const linesOf = (text: string) => text.split("\n").filter((line) => line.trim() !== "")

/** Polls `check` every 50 ms until it holds, failing the test if `server` exits first. */
export const waitUntil = <R>(server: ServerProcess, check: Effect.Effect<boolean, never, R>) =>
  Effect.gen(function*() {
    while (!(yield* check)) {
      if (server.child.exitCode !== null || server.child.signalCode !== null) {
        return yield* Effect.dieMessage(`the server exited: ${server.stderr()}`)
      }
      yield* Effect.sleep(Duration.millis(50))
    }
  })
