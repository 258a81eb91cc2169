// Installs the workspace from the lockfile when node_modules is missing or stale,
// so `npm start` / `npm test` work on a machine that has only Node 20 and npm;
// with --browser (`npm test`), also Debian's Chromium for the browser tests.
import { execSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { dirname, join } from "node:path"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const marker = join(root, "node_modules", ".modules.yaml")
const lockfile = join(root, "pnpm-lock.yaml")
const stale = !existsSync(marker) || statSync(lockfile).mtimeMs > statSync(marker).mtimeMs
if (stale) {
  console.error("[bootstrap] installing dependencies from the lockfile (pnpm 10 via npx)...")
  execSync("npx -y pnpm@10.34.9 install --frozen-lockfile", {
    cwd: root,
    // stdout stays clean: `pnpm mcp:stdio` speaks MCP on it.
    stdio: ["ignore", process.stderr, "inherit"],
    env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0", COREPACK_INTEGRITY_KEYS: "0" }
  })
}

// The browser tests drive Debian's Chromium (never a browser downloaded by a
// package). Installed here when it is missing and this process may install
// system packages (root, or sudo without a password); otherwise those tests
// fail and say how to install it.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
if (process.argv.includes("--browser") && !existsSync(chromium)) {
  const isRoot = process.getuid?.() === 0
  const canSudo = !isRoot && (() => {
    try {
      execSync("sudo -n true", { stdio: "ignore" })
      return true
    } catch {
      return false
    }
  })()
  if (isRoot || canSudo) {
    const sudo = isRoot ? "" : "sudo -n "
    console.error(`[bootstrap] ${chromium} is missing: installing Debian's chromium for the browser tests (${sudo}apt-get install -y chromium)...`)
    try {
      const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
      execSync(`${sudo}apt-get update -q && ${sudo}apt-get install -y -q chromium`, { stdio: ["ignore", process.stderr, "inherit"], env })
    } catch {
      console.error("[bootstrap] installing chromium failed: the browser tests will fail until it is installed (apt-get install -y chromium)")
    }
  } else {
    console.error(`[bootstrap] ${chromium} is missing and this user cannot install packages: the browser tests will fail until Chromium is installed (as root: apt-get install -y chromium)`)
  }
}
