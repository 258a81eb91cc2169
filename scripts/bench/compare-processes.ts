import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"

export const repositoryRoot = join(import.meta.dirname, "../..")
export const serverBundle = join(repositoryRoot, "dist/server.mjs")

/** The newest modification time of the product's sources (packages/, apps/, the build script), in ms. */
const newestSource = (): number => {
  let newest = statSync(join(repositoryRoot, "scripts/build.mjs")).mtimeMs
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "test") continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(ts|mjs|js|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  for (const top of ["packages", "apps"]) {
    for (const entry of readdirSync(join(repositoryRoot, top), { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(join(repositoryRoot, top, entry.name, "src"))) walk(join(repositoryRoot, top, entry.name, "src"))
    }
  }
  return newest
}

/** dist/server.mjs as `pnpm build` makes it: reused when it is newer than every source file, built otherwise. */
export const freshBuild = (progress: (message: string) => void): "reused" | "built" => {
  if (existsSync(serverBundle) && statSync(serverBundle).mtimeMs > newestSource()) return "reused"
  progress("building dist/server.mjs (node scripts/build.mjs)")
  execFileSync(process.execPath, [join(repositoryRoot, "scripts/build.mjs")], { cwd: repositoryRoot, stdio: ["ignore", "ignore", "inherit"] })
  return "built"
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen({ port: 0, host: "127.0.0.1" }, () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface Running {
  readonly name: string
  readonly pid: number
  readonly url: string
  /** What it wrote to stderr (and, for the reference, stdout) so far, for a failure's message. */
  readonly output: () => string
  readonly stop: () => Promise<void>
}

/**
 * Starts `node <args>` from the repository root with `env` (on top of
 * PATH and HOME only), its stdout into `stdoutFile` (the access log),
 * and waits until GET /health answers.
 */
export const startProcess = async (
  name: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  port: number,
  stdoutFile: string
): Promise<Running> => {
  const stdout = openSync(stdoutFile, "w")
  const child: ChildProcess = spawn(process.execPath, [...args], {
    cwd: repositoryRoot,
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env },
    stdio: ["ignore", stdout, "pipe"]
  })
  closeSync(stdout)
  let stderr = ""
  child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")))
  const url = `http://127.0.0.1:${port}`
  const output = () => `${stderr}${name === "reference" ? readFileSync(stdoutFile, "utf8") : ""}`.slice(-3000)
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
      setTimeout(() => child.kill("SIGKILL"), 5000).unref()
    })
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output()}`)
    const up = await fetch(`${url}/health`).then((r) => r.ok, () => false)
    if (up) return { name, pid: child.pid!, url, output, stop }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await stop()
  throw new Error(`${name} did not answer /health within 120 s:\n${output()}`)
}
