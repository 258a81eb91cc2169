import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

/**
 * Every package's tests, and the reliability suite. One test file per core:
 * Vitest's default of one fewer leaves a 2-core machine running a single file
 * at a time, while most of a file's time is spent waiting on its database
 * and its server. TEST_WORKERS overrides it.
 */
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      "apps/server/vitest.reliability.config.ts"
    ],
    maxWorkers: Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism()))
  }
})
