import { describe, expect, it } from "@effect/vitest"
import { canRead } from "@tks/domain/visibility"

describe("visibility", () => {
  it("everyone: every member except external accounts", () => {
    expect(canRead({ role: "viewer", teamIds: [] }, "everyone", [])).toBe(true)
    expect(canRead({ role: "external", teamIds: [] }, "everyone", [])).toBe(false)
  })

  it("teams: members of a listed team, external accounts included", () => {
    expect(canRead({ role: "viewer", teamIds: ["t1"] }, "teams", ["t1", "t2"])).toBe(true)
    expect(canRead({ role: "external", teamIds: ["t2"] }, "teams", ["t1", "t2"])).toBe(true)
    expect(canRead({ role: "viewer", teamIds: ["t3"] }, "teams", ["t1", "t2"])).toBe(false)
  })

  it("admins: organization admins only", () => {
    expect(canRead({ role: "viewer", teamIds: ["t1"] }, "admins", ["t1"])).toBe(false)
    expect(canRead({ role: "billing-admin", teamIds: [] }, "admins", [])).toBe(true)
  })

  it("organization admins read everything, whatever the teams", () => {
    for (const role of ["owner", "admin", "billing-admin"] as const) {
      expect(canRead({ role, teamIds: [] }, "teams", ["t1"])).toBe(true)
    }
  })
})
