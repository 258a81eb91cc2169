import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, type CallerKind } from "./support/callers.js"
import { callTool, mcpClient, mcpGenerations } from "./support/mcp.js"
import { raw, TestServerLive } from "./support/server.js"
import { specTools, toolCases } from "./support/tool-cases.js"

/** The callers the parity is checked for: an organization admin, a viewer and an external account. */
const callers: ReadonlyArray<CallerKind> = ["admin", "viewer", "external"]

layer(TestServerLive, { excludeTestServices: true })("MCP tools give what their HTTP twins give", (it) => {
  it.scoped("on both protocol generations, for an admin, a viewer and an external caller, each tool answers the same records, or the same error, as its endpoint", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const cases = toolCases(result)
      expect(new Set(cases.map((call) => call.tool))).toEqual(new Set(specTools))
      for (const generation of mcpGenerations) for (const kind of callers) {
        const client = yield* mcpClient(tokens[kind], "/mcp", generation)
        for (const { tool, args, http } of cases) {
          const call = yield* callTool(client, tool, args)
          const twin = yield* raw("GET", http, { token: tokens[kind] })
          const label = `${generation} ${kind} ${tool} ${JSON.stringify(args)}`
          if (twin.status === 200) {
            expect(call.isError, `${label}: ${call.text}`).toBe(false)
            expect(call.structured, label).toEqual(twin.json)
          } else {
            expect(call.isError, label).toBe(true)
            expect(call.structured.code, label).toBe(twin.json.code)
            expect(call.structured.message, label).toBe(twin.json.message)
          }
        }
      }
    }))

  it.scoped("the callers see different things: the admin reads records the viewer and the external caller cannot", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const keys = { topicId: result.ids.topics.keys! }
      const admin = yield* callTool(yield* mcpClient(tokens.admin), "get_topic", keys)
      const viewer = yield* callTool(yield* mcpClient(tokens.viewer), "get_topic", keys)
      expect(admin.isError).toBe(false)
      expect(viewer).toMatchObject({ isError: true, structured: { code: "NOT_FOUND" } })
    }))
})
