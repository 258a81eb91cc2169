import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, LogLevel } from "effect"
import { LogLevelConfig } from "../src/observability/logging.js"
import { startServerProcess, stop, waitReady } from "./support/server-process.js"

// The values the README's configuration table lists, as written there.
const documented = ["All", "Trace", "Debug", "Info", "Warning", "Error", "None"]

const parse = (value: string) =>
  Effect.either(LogLevelConfig).pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["LOG_LEVEL", value]])))
  )

describe("LOG_LEVEL takes the README's names in any case, and warn and fatal", () => {
  it.effect("each name maps to its level; an unknown one is refused naming the allowed ones", () =>
    Effect.gen(function*() {
      const expected: Record<string, LogLevel.LogLevel> = {
        All: LogLevel.All,
        trace: LogLevel.Trace,
        DEBUG: LogLevel.Debug,
        Info: LogLevel.Info,
        Warning: LogLevel.Warning,
        WARN: LogLevel.Warning,
        warn: LogLevel.Warning,
        error: LogLevel.Error,
        Fatal: LogLevel.Fatal,
        None: LogLevel.None
      }
      for (const [value, level] of Object.entries(expected)) {
        expect(yield* parse(value), value).toEqual(Either.right(level))
      }
      const refused = yield* parse("loud")
      expect(Either.isLeft(refused)).toBe(true)
      expect(JSON.stringify(refused)).toContain("LOG_LEVEL must be one of All, Trace, Debug, Info, Warning, Error, None")
    }))

  it.scopedLive("the server starts and answers /ready with each documented value, and with warn and fatal", () =>
    Effect.gen(function*() {
      // One data directory for all the starts: only the first pays for creating the database.
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "tks-levels-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      )
      for (const value of [...documented, "warn", "fatal"]) {
        const ready = yield* Effect.scoped(
          Effect.gen(function*() {
            const server = yield* startServerProcess({ LOG_LEVEL: value, SEED_DEMO: "false", DATA_DIR: join(dir, "data") })
            const ready = yield* waitReady(server)
            if (!ready) return `exited: ${server.stderr()}`
            expect(yield* stop(server), value).toBe(0)
            return "ready"
          })
        )
        expect(ready, `LOG_LEVEL=${value}`).toBe("ready")
      }
    }), { timeout: 240_000 })
})
