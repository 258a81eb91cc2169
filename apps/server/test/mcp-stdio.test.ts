import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { StdioClientTransport as LegacyStdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acme, acmeCallers, other } from "@tks/core/testing/organizations"
import { callTool, connectClient, connectLegacyClient, type McpGeneration, mcpGenerations } from "./support/mcp.js"
import { repositoryRoot } from "./support/server-process.js"
import { importFixture, raw, TestServerOnSharedDatabaseLive } from "./support/server.js"
import { SharedDatabaseUrl } from "./support/shared-database.js"
import { specTools, toolCases } from "./support/tool-cases.js"


// Settings of the environment running the tests that must not reach the child.
const notInherited = ["NODE_ENV", "DATABASE_URL", "DATA_DIR", "LOG_LEVEL", "LOG_FORMAT", "TKS_TOKEN"]
const inherited = () =>
  Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] =>
      entry[1] !== undefined && !notInherited.includes(entry[0]) && !entry[0].startsWith("OTEL_")
    )
  )

/**
 * `pnpm mcp:stdio`'s entry as a subprocess on the test's database, with the
 * stdio client transport of the SDK that speaks `generation`.
 */
const stdioClient = (token: string, stderr: Array<string>, generation: McpGeneration = "2026-07-28") =>
  Effect.gen(function*() {
    const url = yield* SharedDatabaseUrl
    const parameters = {
      command: process.execPath,
      args: ["--import", "tsx", "apps/server/src/mcp-stdio.ts"],
      cwd: repositoryRoot,
      env: { ...inherited(), DATABASE_URL: url, TKS_TOKEN: token, DB_POOL_MAX: "4", NO_COLOR: "1" },
      stderr: "pipe" as const
    }
    const capture = (chunk: Buffer) => stderr.push(chunk.toString("utf8"))
    if (generation === "2026-07-28") {
      const transport = new StdioClientTransport(parameters)
      transport.stderr?.on("data", capture)
      return yield* connectClient(transport)
    }
    const transport = new LegacyStdioTransport(parameters)
    transport.stderr?.on("data", capture)
    return yield* connectLegacyClient(transport)
  })

layer(TestServerOnSharedDatabaseLive, { excludeTestServices: true })("MCP over stdio (pnpm mcp:stdio)", (it) => {
  for (const generation of mcpGenerations) {
    it.scoped(`a ${generation} client lists exactly the read-only tools and gets every answer its HTTP twin gives, with logs on stderr only`, () =>
      Effect.gen(function*() {
        const result = yield* importFixture(acme)
        yield* importFixture(other)
        const token = result.tokens[acmeCallers.viewer]!
        const stderr: Array<string> = []
        const client = yield* stdioClient(token, stderr, generation)
        const { tools } = yield* Effect.promise(() => client.listTools())
        expect(tools.map((tool) => tool.name).sort()).toEqual([...specTools].sort())
        const cases = toolCases(result)
        expect(new Set(cases.map((call) => call.tool))).toEqual(new Set(specTools))
        for (const { tool, args, http } of cases) {
          const call = yield* callTool(client, tool, args)
          const twin = yield* raw("GET", http, { token })
          if (twin.status === 200) expect(call.structured, `${tool} ${call.text}`).toEqual(twin.json)
          else expect(call.structured.code, tool).toBe(twin.json.code)
        }
        // Anything on stdout that is not MCP would have broken the client above; the start-up log line went to stderr.
        expect(stderr.join("")).toMatch(/MCP over stdio: ready/)
        // Two imports, a process start and 26 calls: over 30 s when the machine is loaded.
      }), 90_000)
  }

  it.scoped("a token that cannot authenticate stops the process with the reason on stderr", () =>
    Effect.gen(function*() {
      const stderr: Array<string> = []
      // The v1 client's transport keeps the child's stderr after the connection closes; v2's drops what came last.
      const attempt = yield* Effect.either(stdioClient("tks_never-issued", stderr, "2025-11-25"))
      expect(attempt._tag).toBe("Left")
      // The process's last words may arrive just after the connection closed.
      for (let waited = 0; waited < 50 && !/token/i.test(stderr.join("")); waited++) yield* Effect.sleep("100 millis")
      expect(stderr.join("")).toMatch(/bearer token is missing, invalid, expired or revoked/i)
    }))
})
