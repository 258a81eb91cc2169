import { writeSync } from "node:fs"
import type { Reporter, TestModule } from "vitest/node"

/**
 * Prints `N passed, N failed` as the very last line of a run, so CI (and a
 * reader) can tell a run that executed tests from one that executed none.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
        else skipped++
      }
      if (module.state() === "failed" && module.children.size === 0) failed++
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : ""
    // Other reporters print their summaries after this hook; writing at exit
    // keeps this line last.
    process.once("exit", () => writeSync(1, `\n${passed} passed, ${failed} failed${tail}\n`))
  }
}
