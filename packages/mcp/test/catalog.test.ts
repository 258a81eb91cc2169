import type { Rpc } from "@effect/rpc"
import { describe, expect, it } from "@effect/vitest"
import { Context, Option } from "effect"
import { ToolPolicy } from "../src/contract/tool.js"
import { Tools } from "../src/contract/tools.js"
import { listedTool } from "../src/protocol/catalog.js"

const rpcs = [...Tools.requests.values()] as ReadonlyArray<Rpc.AnyWithProps>
const listed = rpcs.map(listedTool)
const byName = new Map(listed.map((tool) => [tool.name, tool]))

describe("the tool catalog derived from the RpcGroup", () => {
  it("every tool declares a policy, so none can be called without one", () => {
    for (const rpc of rpcs) expect(Option.isSome(Context.getOption(rpc.annotations, ToolPolicy)), rpc._tag).toBe(true)
  })

  it("every tool is published with a title, a description for an assistant, object input and output schemas and read-only hints", () => {
    expect(listed).toHaveLength(26)
    for (const tool of listed) {
      expect(tool.title, tool.name).not.toBe(tool.name)
      expect(tool.description.length, tool.name).toBeGreaterThan(40)
      expect(tool.inputSchema, tool.name).toMatchObject({ type: "object" })
      expect(tool.outputSchema, tool.name).toMatchObject({ type: "object", properties: expect.any(Object) })
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
    }
  })

  it("every description points the assistant to another tool: the one to use next, or instead", () => {
    const names = listed.map((tool) => tool.name)
    for (const tool of listed) {
      const others = names.filter((name) => name !== tool.name && tool.description.includes(name))
      expect(others.length, tool.name).toBeGreaterThan(0)
    }
  })

  it("inputs are published in their JSON form: limits are integers with their bounds, ids required strings", () => {
    expect(byName.get("search_service")?.inputSchema).toMatchObject({
      required: ["query"],
      properties: { limit: { minimum: 1, maximum: 50 }, types: { type: "array" } }
    })
    expect(byName.get("list_content")?.inputSchema).toMatchObject({ properties: { limit: { minimum: 1, maximum: 100 } } })
    expect(byName.get("list_role_duties")?.inputSchema).toMatchObject({
      required: ["companyRoleId"],
      properties: { entityType: { enum: ["TOPIC", "ITEM", "SPACE", "CATEGORY"] } }
    })
    expect(byName.get("list_issues")?.inputSchema).toMatchObject({ properties: { assignedToMe: { type: "boolean" } } })
    expect(byName.get("list_categories")?.inputSchema).toMatchObject({ type: "object", properties: {}, additionalProperties: false })
  })
})
