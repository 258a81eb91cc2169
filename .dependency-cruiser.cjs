/**
 * The dependency rules (docs/architecture.md), checked by scripts/check-deps.sh.
 * Paths are relative to the repository root. Workspace packages are imported
 * by name (@tks/...), which resolves to packages/<name>/src; an import by a
 * name that is not a declared dependency stays unresolved as `@tks/...`.
 */
const workspacePaths = ["^packages/", "^apps/", "^scripts/", "^@tks/"]
/** Each project's vitest.config.ts extends the shared settings in scripts/vitest by path: runner configuration, not code. */
const testRunnerConfig = "/vitest(\\.reliability)?\\.config\\.ts$"
/** Test harnesses shared by path on purpose: another package's tests or the bench start the real server or the black-hole proxy. */
const testSupport = "^(packages|apps)/[^/]+/test/support/"

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles make load order and layering unreadable.",
      from: {},
      to: { circular: true }
    },
    {
      name: "repositories-stay-in-core",
      severity: "error",
      comment: "Only core services touch repositories (all SQL lives there); transports call services.",
      from: { pathNot: "^packages/core/" },
      // The second form is an import by package name, which core's exports leave unresolved for ./*/repo.
      to: { path: ["^packages/core/src/.*/(repo|[^/]*-repo)\\.ts$", "^@tks/core/.*/(repo|[^/]*-repo)$"] }
    },
    {
      name: "domain-imports-no-workspace-package",
      severity: "error",
      comment: "packages/domain is the bottom layer: ids, schemas, errors and pure rules.",
      from: { path: "^packages/domain/", pathNot: testRunnerConfig },
      to: { path: workspacePaths, pathNot: ["^packages/domain/", "^@tks/domain/"] }
    },
    {
      name: "domain-does-no-io",
      severity: "error",
      comment:
        "packages/domain does no I/O: besides its own files it imports only effect and @effect/platform (contract types), no Node built-in and no driver.",
      from: { path: "^packages/domain/src/" },
      to: { dependencyTypesNot: ["local"], pathNot: ["^packages/domain/", "node_modules/(effect|@effect/platform)/"] }
    },
    {
      name: "api-imports-only-domain",
      severity: "error",
      comment: "The contract (packages/api) depends on the domain only, so a client can take it without the server.",
      from: { path: "^packages/api/", pathNot: testRunnerConfig },
      to: { path: workspacePaths, pathNot: ["^packages/(api|domain)/", "^@tks/(api|domain)/"] }
    },
    {
      name: "tool-contract-imports-only-domain",
      severity: "error",
      comment: "The tool definitions (packages/mcp/src/contract) depend on the domain only, so an Effect client of /rpc can take them without core.",
      from: { path: "^packages/mcp/src/contract/" },
      to: { path: workspacePaths, pathNot: ["^packages/mcp/src/contract/", "^packages/domain/", "^@tks/domain/"] }
    },
    {
      name: "adapters-import-only-domain",
      severity: "error",
      comment: "Outside-world adapters (packages/adapters) implement ports; they know the domain's shapes, not core, db or the transports.",
      from: { path: "^packages/adapters/", pathNot: testRunnerConfig },
      to: { path: workspacePaths, pathNot: ["^packages/(adapters|domain)/", "^@tks/(adapters|domain)/"] }
    },
    {
      name: "no-cross-package-relative-import",
      severity: "error",
      comment: "Another package is imported by its name (@tks/...), never by a relative path into its folder.",
      from: { path: "(^(packages|apps)/[^/]+/|^scripts/)", pathNot: testRunnerConfig },
      to: { dependencyTypes: ["local"], path: ["^packages/", "^apps/", "^scripts/"], pathNot: ["^$1", testSupport] }
    },
    {
      name: "product-imports-no-bench-reference",
      severity: "error",
      comment: "The bench's reference server (fastify + pg) measures the product from outside; nothing in packages/ or apps/ may use it.",
      from: { path: "^(packages|apps)/" },
      to: { path: "^scripts/bench/reference/" }
    },
    {
      name: "src-imports-no-test-code",
      severity: "error",
      comment: "Shipped code never depends on test code (test harnesses may be shared between tests only).",
      from: { path: "^(packages|apps)/[^/]+/src/" },
      to: { path: "^(packages|apps)/[^/]+/test/" }
    },
    {
      name: "src-imports-only-runtime-dependencies",
      severity: "error",
      comment:
        "Shipped code imports only its package's dependencies: a devDependency is not installed with the package (a type-only import of one is fine).",
      from: { path: "^(packages|apps)/[^/]+/src/" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Build output of our own packages (not of npm packages, whose files also live under dist/).
    exclude: { path: "^(packages/[^/]+/|apps/[^/]+/|scripts/)dist/" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"]
    }
  }
}
