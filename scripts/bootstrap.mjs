// Installs the workspace from the lockfile when node_modules is missing or stale,
// so `npm start` / `npm test` work on a machine that has only Node 20 and npm.
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
