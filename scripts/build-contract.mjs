// The contract as packages a team can install outside this workspace:
// @tks/domain (ids, schemas, errors) and @tks/api (the HttpApi definition),
// each as ES modules with .d.ts, and each packed by `npm pack` into a
// tarball. In the workspace both export their TypeScript sources and depend
// on each other by `workspace:*`; here the sources are compiled file by file
// (no bundling: `@tks/api/api` and `@tks/domain/errors` stay the import paths
// they are in the workspace), the declarations are the ones `tsc -b` makes,
// and @tks/api depends on @tks/domain by version. effect and
// @effect/platform are peer dependencies: a client must share the copy of
// Effect its own code uses, or Schema and Context identities split.
//
// Usage: node scripts/build-contract.mjs [output directory, default: dist/contract]
// (`pnpm build` runs it into dist/contract).
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const require = createRequire(import.meta.url)

/** Every file under `dir` whose name passes `keep`, as paths relative to `dir`. */
const filesUnder = (dir, keep) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))

/** Builds and packs both packages into `outdir` (emptied first). */
export const buildContract = async (outdir) => {
  // The declarations: tsc -b of the contract's projects (incremental: nothing to do after a typecheck).
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-b", "packages/api"], { cwd: root, stdio: "inherit" })

  rmSync(outdir, { recursive: true, force: true })
  const packages = [
    { folder: "domain", description: "Ids, schemas and errors of the Training and Knowledge Service's API" },
    { folder: "api", description: "The Training and Knowledge Service's API as an Effect HttpApi definition: derive a typed client with HttpApiClient" }
  ]
  const workspaceManifests = Object.fromEntries(
    packages.map(({ folder }) => [folder, JSON.parse(readFileSync(join(root, "packages", folder, "package.json"), "utf8"))])
  )
  const versionOf = (name) => Object.values(workspaceManifests).find((manifest) => manifest.name === name)?.version

  for (const { description, folder } of packages) {
    const source = join(root, "packages", folder, "src")
    const target = join(outdir, folder)
    const workspace = workspaceManifests[folder]
    await build({
      absWorkingDir: root,
      entryPoints: filesUnder(source, (name) => name.endsWith(".ts")).map((file) => join(source, file)),
      outbase: source,
      outdir: target,
      bundle: false,
      platform: "neutral",
      format: "esm",
      target: "es2022",
      sourcemap: false,
      logLevel: "warning"
    })
    const declarations = join(root, "packages", folder, "dist", "src")
    for (const file of filesUnder(declarations, (name) => name.endsWith(".d.ts"))) {
      mkdirSync(dirname(join(target, file)), { recursive: true })
      copyFileSync(join(declarations, file), join(target, file))
    }
    const dependencies = {}
    const peerDependencies = {}
    for (const [name, range] of Object.entries(workspace.dependencies ?? {})) {
      if (range.startsWith("workspace:")) dependencies[name] = versionOf(name)
      else peerDependencies[name] = range
    }
    const manifest = {
      name: workspace.name,
      version: workspace.version,
      description,
      type: "module",
      exports: { "./*": { types: "./*.d.ts", default: "./*.js" } },
      ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
      peerDependencies
    }
    writeFileSync(join(target, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
    const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", outdir], { cwd: target, encoding: "utf8" })
    const [{ filename }] = JSON.parse(packed)
    console.error(`built ${relative(root, join(outdir, filename))} (${manifest.name} ${manifest.version})`)
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await buildContract(resolve(process.argv[2] ?? join(root, "dist", "contract")))
}
