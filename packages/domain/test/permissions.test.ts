import { describe, expect, it } from "@effect/vitest"
import {
  hasPermission,
  isOrganizationAdmin,
  mayHoldScope,
  rolesHolding,
  type Permission
} from "@tks/domain/permissions"
import type { OrgRole } from "@tks/domain/roles"

const admins: ReadonlyArray<OrgRole> = ["owner", "admin", "billing-admin"]

describe("roles and permissions", () => {
  it("owner, admin and billing-admin are the organization admins; viewer and external are not", () => {
    for (const role of admins) expect(isOrganizationAdmin(role), role).toBe(true)
    expect(isOrganizationAdmin("viewer")).toBe(false)
    expect(isOrganizationAdmin("external")).toBe(false)
  })

  it("organization admins hold every named permission", () => {
    const all: ReadonlyArray<Permission> = [
      "user.read",
      "organization.update",
      "company-role.read",
      "guide.create",
      "video.create",
      "content-review.create",
      "content-review.read",
      "quiz-result.review",
      "pop-quiz.read-all"
    ]
    for (const role of admins) for (const permission of all) expect(hasPermission(role, permission), `${role} ${permission}`).toBe(true)
  })

  it("organization.update (findings, directory sync) is for organization admins only", () => {
    expect(hasPermission("viewer", "organization.update")).toBe(false)
    expect(hasPermission("external", "organization.update")).toBe(false)
  })

  it("company-role.read is every role except external", () => {
    for (const role of [...admins, "viewer"] as const) expect(hasPermission(role, "company-role.read"), role).toBe(true)
    expect(hasPermission("external", "company-role.read")).toBe(false)
  })

  it("review access for quiz results and organization-wide pop quizzes are admin-only", () => {
    for (const permission of ["quiz-result.review", "pop-quiz.read-all"] as const) {
      expect(hasPermission("viewer", permission)).toBe(false)
      expect(hasPermission("external", permission)).toBe(false)
    }
  })

  it("narration's permissions (guide.create, video.create or content-review.create) are every member except external", () => {
    expect(hasPermission("viewer", "content-review.create")).toBe(true)
    for (const permission of ["guide.create", "video.create", "content-review.create"] as const) {
      expect(hasPermission("external", permission)).toBe(false)
    }
  })

  it("the roles holding a permission are listed in the order of the roles", () => {
    expect(rolesHolding("user.read")).toEqual(["owner", "admin", "billing-admin", "viewer"])
    expect(rolesHolding("organization.update")).toEqual(["owner", "admin", "billing-admin"])
  })

  it("training:assign may be granted to organization admins and team admins only; other scopes to anyone", () => {
    const teamAdmin = [{ teamId: "team_1", role: "team-admin" as const }]
    const teamViewer = [{ teamId: "team_1", role: "team-viewer" as const }]
    for (const role of admins) expect(mayHoldScope(role, [], "training:assign")).toBe(true)
    expect(mayHoldScope("viewer", teamAdmin, "training:assign")).toBe(true)
    expect(mayHoldScope("viewer", teamViewer, "training:assign")).toBe(false)
    expect(mayHoldScope("viewer", [], "training:assign")).toBe(false)
    expect(mayHoldScope("external", [], "training:assign")).toBe(false)
    expect(mayHoldScope("viewer", [], "content:write")).toBe(true)
    expect(mayHoldScope("viewer", [], "narration:synthesize")).toBe(true)
  })
})
