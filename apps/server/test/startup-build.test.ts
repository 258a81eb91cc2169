import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { repositoryRoot, startServerProcess, stop, waitReady } from "./support/server-process.js"

const importsOf = (bundle: string) =>
  [...bundle.matchAll(/(?:^|\n)import\s[^"]*?"([^"]+)"|import\("([^"]+)"\)/g)].map((match) => match[1] ?? match[2] ?? "")

describe("pnpm build produces JavaScript that plain node runs", () => {
  it.scopedLive("the built server starts without tsx, answers /ready and stops on SIGTERM with exit code 0", () =>
    Effect.gen(function*() {
      const outdir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "tks-build-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      )
      execFileSync(process.execPath, ["scripts/build.mjs", outdir], { cwd: repositoryRoot, stdio: "pipe" })

      // Every import is a node builtin or a file in node_modules: nothing needs a TypeScript loader or a hoisted package.
      for (const entry of ["server.mjs", "cli.mjs"]) {
        const imports = importsOf(readFileSync(join(outdir, entry), "utf8"))
        expect(imports.length, entry).toBeGreaterThan(5)
        expect(imports.filter((path) => !path.startsWith("node:") && !/\/node_modules\//.test(path)), entry).toEqual([])
        expect(imports.filter((path) => path.endsWith(".ts")), entry).toEqual([])
      }

      const server = yield* startServerProcess({ SEED_DEMO: "false" }, { args: [join(outdir, "server.mjs")] })
      expect(yield* waitReady(server), server.stderr()).toBe(true)
      expect(yield* stop(server)).toBe(0)
    }), { timeout: 120_000 })
})
