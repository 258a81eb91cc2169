import { writeSync } from "node:fs"
import { relative } from "node:path"
import type { Reporter, TestModule } from "vitest/node"

/**
 * Prints `N passed, N failed` as the very last line of a run, so CI (and a
 * reader) can tell a run that executed tests from one that executed none.
 * Above it, one `FAILED` line per failed test (file, name, the error's first
 * line): a CI log is often read from its tail only, and the default
 * reporter's account of a failure is hundreds of lines further up.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    const failures: Array<string> = []
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result()
        if (result.state === "passed") passed++
        else if (result.state === "failed") {
          failed++
          failures.push(`FAILED ${relative(process.cwd(), module.moduleId)} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`)
        } else skipped++
      }
      if (module.state() === "failed" && module.children.size === 0) {
        failed++
        failures.push(`FAILED ${relative(process.cwd(), module.moduleId)} (the file did not run): ${firstLine(module.errors()[0]?.message)}`)
      }
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : ""
    const failureLines = failures.map((line) => `${line}\n`).join("")
    // Other reporters print their summaries after this hook; writing at exit
    // keeps these lines last.
    process.once("exit", () => writeSync(1, `\n${failureLines}${passed} passed, ${failed} failed${tail}\n`))
  }
}

const firstLine = (message: string | undefined): string => (message ?? "(no message)").split("\n", 1)[0]!.slice(0, 300)
