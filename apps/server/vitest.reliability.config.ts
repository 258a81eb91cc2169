import { defineProject, mergeConfig } from "vitest/config"
import { shared } from "../../scripts/vitest/shared.js"

/**
 * The reliability suite (apps/server/reliability): contract fuzz, database
 * faults under write load, and concurrency across two server processes.
 * `npm test` runs its bounded form; `pnpm test:reliability` the full one
 * (RELIABILITY=full, see reliability/budget.ts).
 */
export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: "reliability",
      include: ["reliability/**/*.test.ts"],
      testTimeout: 900_000,
      hookTimeout: 300_000
    }
  })
)
