import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix } from "./support/callers.js"
import { repositoryRoot } from "./support/server-process.js"
import { baseUrl, TestServerLive } from "./support/server.js"

const require = createRequire(import.meta.url)
const versionOf = (name: string) => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version

/**
 * What a team outside this workspace writes: the typed client from the
 * contract package, a call that succeeds and one that fails with a typed
 * error. The type annotations are the point: if the packed declarations lost
 * a type, `tsc` fails here.
 */
const consumerSource = `declare const process: { readonly env: Record<string, string | undefined> }
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api } from "@tks/api/api"
import { UserId } from "@tks/domain/ids"
import type { Me } from "@tks/domain/me"
import { Effect } from "effect"

const program = Effect.gen(function*() {
  const client = yield* HttpApiClient.make(Api, {
    baseUrl: process.env.BASE_URL!,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(process.env.TOKEN!))
  })
  const me: Me = yield* client.me.get()
  const missing = yield* client.members.get({ path: { id: UserId.make("usr_nobody") } }).pipe(
    Effect.map(() => "found" as const),
    Effect.catchTag("NotFound", (error) => Effect.succeed(error.code))
  )
  const code: "NOT_FOUND" | "found" = missing
  return { name: me.name, role: me.role, missing: code }
})

program.pipe(
  Effect.provide(FetchHttpClient.layer),
  Effect.runPromise
).then((result) => console.log(JSON.stringify(result)))
`

const consumerTsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    // The packed declarations are checked too, not only the consumer's code.
    skipLibCheck: false,
    types: [],
    lib: ["ES2022", "DOM"],
    outDir: "out"
  },
  include: ["client.ts"]
}

layer(TestServerLive, { excludeTestServices: true })("the contract as packages installed outside the workspace", (it) => {
  it.scoped("pnpm build's contract tarballs install with npm into a throw-away package, type-check, and their HttpApiClient calls the server", () =>
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "tks-contract-"))),
        (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
      )
      const contract = join(dir, "contract")
      execFileSync(process.execPath, ["scripts/build-contract.mjs", contract], { cwd: repositoryRoot, stdio: "pipe" })
      const tarballs = readdirSync(contract).filter((file) => file.endsWith(".tgz")).sort()
      expect(tarballs).toEqual(["tks-api-0.1.0.tgz", "tks-domain-0.1.0.tgz"])

      const consumer = join(dir, "consumer")
      mkdirSync(consumer)
      writeFileSync(join(consumer, "package.json"), JSON.stringify({
        name: "contract-consumer",
        private: true,
        type: "module",
        dependencies: {
          "@tks/api": `file:${join(contract, "tks-api-0.1.0.tgz")}`,
          "@tks/domain": `file:${join(contract, "tks-domain-0.1.0.tgz")}`,
          effect: versionOf("effect"),
          "@effect/platform": versionOf("@effect/platform")
        }
      }))
      writeFileSync(join(consumer, "client.ts"), consumerSource)
      writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify(consumerTsconfig))
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--loglevel=error"], {
        cwd: consumer,
        stdio: "pipe"
      })
      // The workspace's own links are nowhere on this path: the packages came from the tarballs.
      const installed = JSON.parse(readFileSync(join(consumer, "node_modules", "@tks", "api", "package.json"), "utf8")) as { dependencies: object }
      expect(installed.dependencies).toEqual({ "@tks/domain": "0.1.0" })

      const tsc = require.resolve("typescript/bin/tsc")
      const typecheck = yield* Effect.sync(() => {
        try {
          execFileSync(process.execPath, [tsc, "-p", consumer], { cwd: consumer, encoding: "utf8" })
          return ""
        } catch (error) {
          return String((error as { stdout?: string }).stdout ?? error)
        }
      })
      expect(typecheck).toBe("")

      const { tokens } = yield* acmeCallerMatrix
      const url = yield* baseUrl
      const output = yield* Effect.promise(() =>
        new Promise<string>((done, failed) => {
          const child = require("node:child_process").execFile(
            process.execPath,
            [join(consumer, "out", "client.js")],
            { cwd: consumer, env: { ...process.env, BASE_URL: url, TOKEN: tokens.admin } },
            (error: Error | null, stdout: string) => (error === null ? done(stdout) : failed(error))
          )
          return child
        })
      )
      expect(JSON.parse(output)).toEqual({ name: "adam Admin", role: "admin", missing: "NOT_FOUND" })
    }), { timeout: 300_000 })
})
