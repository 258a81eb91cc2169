import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

/**
 * Every package's tests, and the reliability suite. One test file per core:
 * Vitest's default of one fewer leaves a 2-core machine running a single file
 * at a time, while most of a file's time is spent waiting on its database
 * and its server. TEST_WORKERS overrides it.
 *
 * `isolate: false` (read from this root config only, not from the projects):
 * a worker process runs its test files one after another in one module
 * graph, so Effect, the platform packages, the contract and PGlite's
 * WebAssembly load once per worker instead of once per file. Loading them
 * was most of the suite's time: on a quiet 2-core machine the whole suite
 * took 16 min isolated and 9 to 11 not. What it asks of tests: a file leaves
 * nothing in a module that the next file could pick up. Every file gets its
 * own database and server from its layer, and a fixture a file's tests share
 * is memoized per database (apps/server/test/support/once.ts), never in a
 * module variable.
 */
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      "apps/server/vitest.reliability.config.ts",
      "scripts/vitest.config.ts"
    ],
    isolate: false,
    maxWorkers: Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism()))
  }
})
