import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { type BrowserContext, chromium } from "playwright-core"
import { repositoryRoot } from "./server-process.js"

/** Debian's Chromium (`apt-get install -y chromium`), or CHROMIUM_PATH. No browser is ever downloaded. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Where browser tests leave what a person would look at (screenshots); ignored by git. */
export const testOutputDir = join(repositoryRoot, "apps/server/test-output")

/**
 * No sandbox (the tests may run as root), no GPU, and none of Chromium's own
 * traffic (updates, sync, field trials, QUIC probes): on a closed network
 * those calls fail over and over and slow the page under test.
 */
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

/**
 * A headless Chromium with a fresh profile, closed (and its profile removed)
 * with the scope. No Chromium is a failure that says how to install one: a
 * browser test that quietly does not run checks nothing.
 */
export const headlessChromium = Effect.acquireRelease(
  Effect.gen(function*() {
    if (!existsSync(chromiumPath)) {
      return yield* Effect.dieMessage(
        `No Chromium at ${chromiumPath}. Install Debian's: \`apt-get install -y chromium\` (as root; \`npm test\` does this ` +
          `itself when it runs as root or with passwordless sudo), or set CHROMIUM_PATH to a Chromium executable.`
      )
    }
    const profile = mkdtempSync(join(tmpdir(), "tks-chromium-"))
    const context = yield* Effect.promise(() =>
      chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        headless: true,
        args: CHROMIUM_FLAGS,
        viewport: { width: 1400, height: 1000 }
      })
    ).pipe(Effect.tapErrorCause(() => Effect.sync(() => rmSync(profile, { recursive: true, force: true }))))
    return { context, profile }
  }),
  ({ context, profile }) =>
    Effect.promise(() => context.close()).pipe(
      Effect.ensuring(Effect.sync(() => rmSync(profile, { recursive: true, force: true })))
    )
).pipe(Effect.map(({ context }): BrowserContext => context))

/** The path of `name` in the test output folder (created on demand). */
export const testOutput = (name: string): string => {
  mkdirSync(testOutputDir, { recursive: true })
  return join(testOutputDir, name)
}
