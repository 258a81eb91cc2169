import { spawn } from "node:child_process"
import { resolve } from "node:path"
import { Effect } from "effect"

/** The checkout that holds this file: the CLI under test is always its own. */
export const repositoryRoot = resolve(import.meta.dirname, "../../..")

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs the CLI the way an operator does (`npx tsx apps/cli/src/main.ts ...`
 * from the repository root) with DATABASE_URL cleared, so it uses the
 * embedded database in the DATA_DIR given.
 */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.async<CliRun>((resume) => {
    const child = spawn("npx", ["tsx", "apps/cli/src/main.ts", ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, DATABASE_URL: "", NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill())
  })

/** What the CLI said on stderr, line by line, without blank lines and npx's own warnings about the machine's npm configuration. */
export const said = (stderr: string) => stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"))
