import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { repositoryRoot } from "./run-cli.js"

const check = join(repositoryRoot, ".ci", "no-machine-paths")

// Built at run time, so this file does not name the paths it tests.
const rooted = (...parts: ReadonlyArray<string>) => "/" + parts.join("/")

const scratch = mkdtempSync(join(tmpdir(), "tks-paths-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs the check over a fresh repository whose tracked files are `files`. */
const checkRepository = (name: string, files: Record<string, string>) => {
  const dir = join(scratch, name)
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), content)
  }
  execFileSync("git", ["init", "-q"], { cwd: dir })
  execFileSync("git", ["add", "."], { cwd: dir })
  return spawnSync("bash", [check, dir], { encoding: "utf8" })
}

describe("no tracked file names an absolute path of a machine", () => {
  it("the CLI tests spawn the CLI of the checkout that holds them", () => {
    expect(relative(repositoryRoot, import.meta.dirname)).toBe(join("apps", "cli", "test"))
    expect(existsSync(join(repositoryRoot, "apps", "cli", "src", "main.ts"))).toBe(true)
    expect(repositoryRoot).toBe(resolve(import.meta.dirname, "..", "..", ".."))
  })

  it("this repository passes the check", () => {
    const run = spawnSync("bash", [check], { encoding: "utf8" })
    expect(run.stdout).toContain("no tracked file names an absolute machine path")
    expect(run.status).toBe(0)
  })

  it("a checkout, home, temp or Windows user path in a tracked file fails it, naming the file and line", () => {
    const run = checkRepository("flagged", {
      "a.ts": `const cwd = "${rooted("work", "main")}"\n`,
      "b.md": `ok\nsee ${rooted("home", "ann", "tks")}/README\n`,
      "c.sh": `cd ${rooted("tmp", "checkout")} && ls\n`,
      "d.json": JSON.stringify({ dir: rooted("Users", "ann", "code") }),
      "e.txt": `file://${rooted("root", "x")}\n`,
      "f.txt": `${["C:", "Users", "ann", "tks"].join("\\")}\n`
    })
    expect(run.status).toBe(1)
    for (const hit of ["a.ts:1:", "b.md:2:", "c.sh:1:", "d.json:1:", "e.txt:1:", "f.txt:1:"]) {
      expect(run.stdout).toContain(hit)
    }
  })

  it("routes, URLs, /dev/null, shebangs and lockfiles pass it", () => {
    const run = checkRepository("clean", {
      "a.ts": `#!/usr/bin/env node\nfetch("https://example.com${rooted("home", "x")}")\nconst r = "/v1${rooted("work", "items")}"\n`,
      "b.sh": "echo hi >/dev/null 2>&1\nmktemp -d\n",
      "c.md": "See `../notes/README.md` and https://github.com/org/home/tree/main\n",
      "pnpm-lock.yaml": `resolution: {directory: ${rooted("work", "main", "x")}}\n`
    })
    expect(run.stdout).toContain("no tracked file names an absolute machine path")
    expect(run.status).toBe(0)
  })
})
