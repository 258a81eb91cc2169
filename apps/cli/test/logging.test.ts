import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { runCli } from "./run-cli.js"

const dir = mkdtempSync(join(tmpdir(), "tks-cli-logs-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const logLines = (stderr: string) => stderr.split("\n").filter((line) => line !== "" && !line.startsWith("npm warn"))

describe("the CLI's logs", () => {
  it.live("under NODE_ENV=production every log line on stderr is a JSON object with message, level and time, and stdout holds only the result", () =>
    Effect.gen(function*() {
      const run = yield* runCli(["migrate"], { DATA_DIR: join(dir, "production"), NODE_ENV: "production" })
      expect(run.code).toBe(0)
      const lines = logLines(run.stderr).map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines.map((line) => line["message"])).toContain("Applied database migrations")
      for (const line of lines) {
        expect(line).toMatchObject({ logLevel: expect.any(String), timestamp: expect.any(String) })
      }
      expect(JSON.parse(run.stdout)).toBeTypeOf("object")
    }), { timeout: 120_000 })

  it.live("an unknown LOG_FORMAT stops the command with exit code 1 and says which values it takes", () =>
    Effect.gen(function*() {
      const run = yield* runCli(["migrate"], { DATA_DIR: join(dir, "bad-format"), LOG_FORMAT: "yaml" })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain("json, logfmt, pretty")
      expect(run.stdout).toBe("")
    }), { timeout: 120_000 })
})
