// The production build: apps/server/src/main.ts -> dist/server.mjs, the
// standalone job worker apps/server/src/worker-main.ts -> dist/worker.mjs, and
// apps/cli/src/main.ts -> dist/cli.mjs, runnable by plain `node` (no tsx), and
// the local speech engine's worker thread -> dist/speech-worker.mjs, which the
// bundles start by `new URL("./speech-worker.mjs", import.meta.url)`.
// The workspace packages (@tks/*) are compiled into the bundles; every other
// package stays in node_modules, where PGlite finds its wasm and data files.
// pnpm does not hoist the apps' dependencies to the root node_modules, so each
// external import is written as a path relative to dist/ into the package's
// real location (the same file Node would load from the importing package).
import { realpathSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { buildContract } from "./build-contract.mjs"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
// Usage: node scripts/build.mjs [output directory, default: dist/ at the repository root]
const outdir = resolve(process.argv[2] ?? join(root, "dist"))

/** @type {import("esbuild").Plugin} */
const externalsFromNodeModules = {
  name: "externals-from-node-modules",
  setup(pluginBuild) {
    // Bare specifiers other than the workspace's own packages and node builtins.
    pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving || args.path.startsWith("@tks/") || args.path.startsWith("node:")) return undefined
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true }
      })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      // Node builtins imported without the node: prefix.
      if (resolved.external) return { path: args.path, external: true }
      const file = relative(outdir, realpathSync(resolved.path)).split(sep).join("/")
      return { path: file.startsWith(".") ? file : `./${file}`, external: true }
    })
  }
}

const result = await build({
  absWorkingDir: root,
  entryPoints: {
    server: "apps/server/src/main.ts",
    worker: "apps/server/src/worker-main.ts",
    "mcp-stdio": "apps/server/src/mcp-stdio.ts",
    cli: "apps/cli/src/main.ts",
    "speech-worker": "packages/adapters/src/speech/speech-worker.mjs"
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Node's own resolution: no bundler-only "module" condition.
  conditions: ["node", "import"],
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  plugins: [externalsFromNodeModules]
})
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (file.endsWith(".mjs")) console.error(`built ${file} (${Math.round(output.bytes / 1024)} KB)`)
}

// The contract as packages to install outside the workspace (<outdir>/contract).
await buildContract(join(outdir, "contract"))
