import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Tools } from "@tks/mcp/contract/tools"
import {
  endpointMatrix,
  matrixCallers,
  matrixTokensOnce,
  missingRows,
  probeEndpoint,
  probeTool,
  probeToolUnauthenticated,
  toolMatrix
} from "./support/authorization-matrix.js"
import { badTokens, callerKinds } from "./support/callers.js"
import { mcpClient } from "./support/mcp.js"
import { TestServerLive } from "./support/server.js"

/**
 * The authorization matrix (support/authorization-matrix.ts) stays complete:
 * every endpoint of the HTTP contract and every tool of the Tools group has
 * a row for every caller kind, and every row still holds.
 */
const endpoints = Object.values(Api.groups).flatMap((group) => Object.values(group.endpoints).map((endpoint) => `${endpoint.method} ${endpoint.path}`))
const tools = [...Tools.requests.keys()]

describe("the authorization matrix is complete", () => {
  it("every endpoint of the contract has a row for each caller kind, and every row names an endpoint", () => {
    expect(endpoints.length).toBeGreaterThan(70)
    expect(missingRows(endpointMatrix, endpoints)).toEqual([])
    expect(Object.keys(endpointMatrix).filter((key) => !endpoints.includes(key))).toEqual([])
  })

  it("every MCP tool has a row for each caller kind, and every row names a tool", () => {
    expect(tools).toHaveLength(26)
    expect(missingRows(toolMatrix, tools)).toEqual([])
    expect(Object.keys(toolMatrix).filter((key) => !tools.includes(key))).toEqual([])
  })

  it("the caller kinds are no token, the bad tokens, each org role, a team admin and another organization's admin", () => {
    expect(matrixCallers).toEqual([
      "none", "invalid", "expired", "revoked", "owner", "admin", "billingAdmin", "viewer", "external", "teamAdmin", "otherOrgAdmin"
    ])
    // A row missing a caller is reported by caller.
    expect(missingRows({ "GET /v1/x": { none: 401 } }, ["GET /v1/x", "GET /v1/y"])).toEqual([
      ...matrixCallers.filter((caller) => caller !== "none").map((caller) => `GET /v1/x: ${caller}`),
      "GET /v1/y"
    ])
  })
})

layer(TestServerLive, { excludeTestServices: true })("the authorization matrix holds", (it) => {
  it.effect("every endpoint answers each caller's probe as its row says", () =>
    Effect.gen(function*() {
      const tokens = yield* matrixTokensOnce
      const observed: Record<string, Record<string, number>> = {}
      for (const key of endpoints) {
        const [method, path] = key.split(" ") as [string, string]
        const row: Record<string, number> = {}
        for (const caller of matrixCallers) row[caller] = yield* probeEndpoint(method, path, tokens[caller])
        observed[key] = row
      }
      expect(observed).toEqual(endpointMatrix)
    }), 300_000)

  it.scoped("every tool answers each caller's probe as its row says", () =>
    Effect.gen(function*() {
      const tokens = yield* matrixTokensOnce
      const observed: Record<string, Record<string, unknown>> = Object.fromEntries(tools.map((tool) => [tool, {}]))
      for (const bad of badTokens) {
        for (const tool of tools) observed[tool]![bad] = yield* probeToolUnauthenticated(tool, tokens[bad])
      }
      for (const kind of callerKinds) {
        const client = yield* mcpClient(tokens[kind]!)
        const listed = yield* Effect.promise(() => client.listTools())
        for (const tool of listed.tools) observed[tool.name]![kind] = yield* probeTool(client, tool)
      }
      expect(observed).toEqual(toolMatrix)
    }), 300_000)
})
