import { defineConfig } from "vitest/config"

// Root run: the projects come from vitest.workspace.ts; the summary reporter
// prints the closing `N passed, N failed` line that CI reads.
export default defineConfig({
  test: {
    reporters: ["default", "./scripts/vitest/summary-reporter.ts"]
  }
})
