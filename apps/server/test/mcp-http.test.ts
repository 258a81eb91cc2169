import { expect, layer } from "@effect/vitest"
import { Ajv } from "ajv"
import { Effect } from "effect"
import { acmeCallerMatrix } from "./support/callers.js"
import { callTool, mcpClient, mcpInitialize, mcpPostHeaders } from "./support/mcp.js"
import { raw, TestServerLive } from "./support/server.js"
import { specTools, toolCases } from "./support/tool-cases.js"


layer(TestServerLive, { excludeTestServices: true })("MCP over Streamable HTTP at /mcp", (it) => {
  it.effect("without a valid token /mcp is 401 with WWW-Authenticate and the JSON error body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      for (const token of [undefined, tokens.invalid, tokens.expired, tokens.revoked]) {
        const response = yield* raw("POST", "/mcp", { token, body: mcpInitialize, headers: mcpPostHeaders })
        expect(response.status).toBe(401)
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/)
        expect(response.json).toMatchObject({ code: "UNAUTHORIZED" })
      }
    }))

  it.effect("a body that is not JSON is a JSON-RPC parse error, not a crash", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const response = yield* raw("POST", "/mcp", { token: tokens.viewer, body: "{not json", headers: mcpPostHeaders })
      expect(response.status).toBe(400)
      expect(response.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } })
    }))

  it.effect("GET and DELETE /mcp are 405: the transport is stateless, with no event stream and no session", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      for (const method of ["GET", "DELETE"]) {
        const response = yield* raw(method, "/mcp", { token: tokens.viewer })
        expect(response.status, method).toBe(405)
        expect(response.json).toMatchObject({ code: "METHOD_NOT_ALLOWED" })
      }
    }))

  it.scoped("tools/list publishes exactly the 26 tools, each with valid JSON Schemas for its input and output, a description and read-only hints", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((tool) => tool.name).sort()).toEqual([...specTools].sort())
      const ajv = new Ajv({ strict: false })
      for (const tool of tools) {
        expect(tool.inputSchema.type, tool.name).toBe("object")
        const validate = ajv.compile(tool.inputSchema)
        // An empty input is valid exactly when the tool has no required input.
        expect(validate({}), tool.name).toBe((tool.inputSchema.required ?? []).length === 0)
        // The output schema compiles too; the client checks every structured result against it (support/mcp.ts).
        expect(tool.outputSchema?.type, tool.name).toBe("object")
        ajv.compile(tool.outputSchema!)
        expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40)
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true)
      }
    }))

  it.scoped("a tool call gives the same record as its HTTP twin, as structured content and as JSON text", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const topicId = result.ids.topics.deploy!
      const call = yield* callTool(client, "get_topic", { topicId })
      const http = yield* raw("GET", `/v1/topics/${topicId}`, { token: tokens.viewer })
      expect(call.isError).toBe(false)
      expect(call.structured).toEqual(http.json)
      expect(JSON.parse(call.text)).toEqual(http.json)
    }))

  it.scoped("bad input is a tool error with the body HTTP gives: one issue per field, one line each, no Schema dump; never a protocol error", () =>
    Effect.gen(function*() {
      const { tokens } = yield* acmeCallerMatrix
      const client = yield* mcpClient(tokens.viewer)
      const call = yield* callTool(client, "list_content", { limit: 500 })
      expect(call.isError).toBe(true)
      expect(call.structured).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR", issues: [{ path: "limit" }] })
      const http = yield* raw("GET", "/v1/content?limit=500", { token: tokens.viewer })
      expect(call.structured.issues.map((issue: { path: string }) => issue.path)).toEqual(
        http.json.issues.map((issue: { path: string }) => issue.path)
      )
      expect(call.structured.message).toBe(`limit: ${call.structured.issues[0].message}`)
      const several = yield* callTool(client, "list_issues", { severity: "URGENT", status: "LOST", colour: "red" })
      expect(several.structured.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["colour", "severity", "status"])
      for (const issue of several.structured.issues) expect(issue.message, issue.path).not.toMatch(/\n/)
      const missing = yield* callTool(client, "get_topic", {})
      expect(missing.isError).toBe(true)
      expect(missing.text).toMatch(/topicId/)
      // Search takes 1 to 50; an unrecognized category slug is an error; inputs are exact.
      const refused: ReadonlyArray<readonly [string, Record<string, unknown>, RegExp]> = [
        ["search_service", { query: "deploy", limit: 51 }, /limit/],
        ["search_service", { query: "deploy", types: ["video"] }, /types|topic|chapter/],
        ["list_spaces", { categorySlug: "astrology" }, /categorySlug/],
        ["get_maturity", { categorySlug: "astrology" }, /categorySlug/],
        ["list_issues", { severity: "URGENT" }, /severity/],
        ["list_role_duties", { companyRoleId: "rol_x", entityType: "ROLE" }, /entityType/],
        ["list_lessons", { query: "onboarding", page: 2 }, /page/]
      ]
      for (const [tool, args, message] of refused) {
        const call = yield* callTool(client, tool, args)
        expect(call, tool).toMatchObject({ isError: true, structured: { code: "VALIDATION_ERROR" } })
        expect(call.structured.message, tool).toMatch(message)
      }
    }))

  it.scoped("every tool that takes an id answers not found for another organization's record, as its HTTP twin does", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      // Acme's records, asked for by the admin of another organization.
      const client = yield* mcpClient(tokens.otherOrgAdmin)
      const withIds = toolCases(result).filter(({ args }) => Object.keys(args).some((name) => /Id$/.test(name)))
      expect(new Set(withIds.map(({ tool }) => tool)).size).toBeGreaterThanOrEqual(13)
      for (const { tool, args, http } of withIds) {
        const call = yield* callTool(client, tool, args)
        expect(call, `${tool} ${JSON.stringify(args)}`).toMatchObject({ isError: true, structured: { code: "NOT_FOUND" } })
        const twin = yield* raw("GET", http, { token: tokens.otherOrgAdmin })
        expect(twin.status, http).toBe(404)
      }
    }))

  it.scoped("another organization's id is not found, and a tool the caller may not use is forbidden", () =>
    Effect.gen(function*() {
      const { other, tokens } = yield* acmeCallerMatrix
      const viewer = yield* mcpClient(tokens.viewer)
      const foreign = yield* callTool(viewer, "get_topic", { topicId: Object.values(other.ids.topics)[0] ?? "top_x" })
      expect(foreign).toMatchObject({ isError: true, structured: { code: "NOT_FOUND" } })
      const external = yield* mcpClient(tokens.external)
      const roles = yield* callTool(external, "list_company_roles", {})
      expect(roles).toMatchObject({ isError: true, structured: { code: "FORBIDDEN" } })
    }))
})
