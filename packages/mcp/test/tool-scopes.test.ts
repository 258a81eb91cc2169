import { describe, expect, it } from "@effect/vitest"
import type { Actor } from "@tks/domain/actor"
import { OrganizationId, UserId } from "@tks/domain/ids"
import type { Scope } from "@tks/domain/roles"
import { lackedScope } from "../src/protocol/tool-scopes.js"

const actor = (scopes: ReadonlyArray<Scope>): Actor => ({
  organizationId: OrganizationId.make("org_a"),
  userId: UserId.make("usr_a"),
  role: "admin",
  teams: [],
  scopes,
  tokenId: null
})

// A catalog with one tool that needs a scope (today's tools all read, and need none).
const scopeOf = (name: string): Scope | null | undefined =>
  name === "assign_lesson" ? "training:assign" : name === "search_service" ? null : undefined

const call = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } })

describe("the scope a request's tool calls lack", () => {
  it("a tools/call of a tool whose scope the caller lacks names that scope; with the scope, nothing", () => {
    expect(lackedScope(actor([]), call("assign_lesson"), scopeOf)).toBe("training:assign")
    expect(lackedScope(actor(["training:assign"]), call("assign_lesson"), scopeOf)).toBeUndefined()
  })

  it("tools needing no scope, unknown tools, other methods and bodies that are not JSON-RPC pass (the tool or the SDK answers them)", () => {
    for (const body of [call("search_service"), call("no_such_tool"), { jsonrpc: "2.0", id: 1, method: "tools/list" }, "{not json", null, undefined]) {
      expect(lackedScope(actor([]), body, scopeOf), JSON.stringify(body)).toBeUndefined()
    }
  })

  it("a body of several messages is read message by message", () => {
    expect(lackedScope(actor([]), [call("search_service"), call("assign_lesson")], scopeOf)).toBe("training:assign")
  })
})
