import { existsSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { freePort, linesOf, occupyPort, startServerProcess } from "./support/server-process.js"

const slow = { timeout: 120_000 }

/** Starts the server with `env`, waits for it to exit; its code, stdout and stderr lines. */
const failedStart = (env: Record<string, string>, options: { readonly port?: number } = {}) =>
  Effect.gen(function*() {
    const server = yield* startServerProcess(env, options)
    const code = yield* server.exited
    return { code, stderr: linesOf(server.stderr()), stdout: server.stdout(), dataDir: server.dataDir }
  })

describe("a failed start is one readable line on stderr and exit code 1", () => {
  it.scopedLive("a bad configuration value names the variable, what it accepts and what it got", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
        // One per place settings are read: the server's, the logger's, the links in messages', the database's
        // (every message is checked in startup-config.test.ts).
        [{ PORT: "abc" }, `PORT must be a port number (1-65535), got "abc"`],
        [{ LOG_FORMAT: "xml" }, `LOG_FORMAT must be json, logfmt or pretty, got "xml"`],
        [{ APP_URL: "learn.acme.test" }, `APP_URL must be an http:// or https:// URL without a query or fragment, got "learn.acme.test"`],
        [{ DB_POOL_MAX: "lots" }, `DB_POOL_MAX: Expected an integer value but received "lots"`]
      ]
      for (const [env, message] of cases) {
        const run = yield* failedStart(env)
        expect(run.stderr, JSON.stringify(env)).toEqual([`Cannot start the service: ${message}`])
        expect(run.code, JSON.stringify(env)).toBe(1)
        expect(existsSync(run.dataDir), "nothing was opened").toBe(false)
      }
    }), slow)

  it.scopedLive("a port already in use stops the start before the database is opened, migrated or seeded", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      yield* occupyPort(port)
      const run = yield* failedStart({}, { port })
      expect(run.stderr).toEqual([
        `Cannot start the service: port ${port} is already in use (127.0.0.1:${port}): stop the process using it or set PORT to a free port`
      ])
      expect(run.code).toBe(1)
      expect(existsSync(run.dataDir)).toBe(false)
    }), slow)

  it.scopedLive("an unreachable database is named with the reason, without a stack trace or a cause dump", () =>
    Effect.gen(function*() {
      // A loopback port nobody listens on: connections are refused.
      const closed = yield* freePort
      // The first connection is retried for DB_START_TIMEOUT_MS before the service gives up.
      const run = yield* failedStart({ DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/tks`, DB_START_TIMEOUT_MS: "1500" })
      expect(run.stderr).toEqual([
        `Cannot start the service: Cannot reach the database at 127.0.0.1:${closed} after 1.5 s: connection refused`
      ])
      expect(run.code).toBe(1)
    }), slow)
})
