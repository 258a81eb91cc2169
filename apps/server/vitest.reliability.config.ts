import { defineProject } from "vitest/config"
import { shared } from "../../scripts/vitest/shared.js"

/**
 * The reliability suite (apps/server/reliability): contract fuzz, database
 * faults under write load, and concurrency across two server processes.
 * `npm test` runs its bounded form; `pnpm test:reliability` the full one
 * (RELIABILITY=full, see reliability/budget.ts). Built from the shared
 * settings by spreading, not mergeConfig, which would concatenate `include`
 * and run the server's own tests here a second time.
 */
export default defineProject({
  test: {
    ...shared.test,
    name: "reliability",
    include: ["reliability/**/*.test.ts"],
    testTimeout: 2_400_000,
    hookTimeout: 300_000
  }
})
