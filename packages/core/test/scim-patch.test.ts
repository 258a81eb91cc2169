import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { SCIM_ENTERPRISE_USER, SCIM_PATCH_OP, SCIM_USER } from "@tks/domain/scim"
import { applyPatch, patchOperations } from "../src/scim/patch.js"
import { projectUser } from "../src/scim/user-resource.js"

const user = {
  schemas: [SCIM_USER],
  id: "usr_1",
  userName: "ann@example.com",
  active: true,
  name: { givenName: "Ann", familyName: "Lee" },
  emails: [{ value: "ann@example.com", type: "work", primary: true }]
}

const patched = (operations: ReadonlyArray<unknown>) =>
  Either.flatMap(patchOperations({ schemas: [SCIM_PATCH_OP], Operations: operations }), (ops) => applyPatch(user, ops))
const ok = (operations: ReadonlyArray<unknown>) => Either.getOrThrow(patched(operations))
const refusal = (body: unknown) =>
  Either.match(Either.flatMap(patchOperations(body), (ops) => applyPatch(user, ops)), { onLeft: (e) => [e.scimType, e.detail], onRight: () => "applied" })

describe("SCIM PATCH in the dialects directories send", () => {
  it("Entra ID: \"Replace\" on paths with a value filter, and active as the string \"False\"", () => {
    const after = ok([
      { op: "Replace", path: `emails[type eq "work"].value`, value: "ann.lee@example.com" },
      { op: "Replace", path: "name.familyName", value: "Lee-Smith" },
      { op: "Replace", path: "active", value: "False" }
    ])
    expect(after.emails).toEqual([{ value: "ann.lee@example.com", type: "work", primary: true }])
    expect(after.name).toEqual({ givenName: "Ann", familyName: "Lee-Smith" })
    expect(Either.getOrThrow(projectUser(after))).toMatchObject({ email: "ann.lee@example.com", name: "Ann Lee-Smith", active: false })
  })

  it("Entra ID: the manager added by its id, then removed; removing it again is not an error", () => {
    const added = ok([{ op: "Add", path: `${SCIM_ENTERPRISE_USER}:manager`, value: "usr_9" }])
    expect(Either.getOrThrow(projectUser(added)).managerReference).toBe("usr_9")
    const removed = Either.getOrThrow(Either.flatMap(patchOperations({ Operations: [{ op: "Remove", path: `${SCIM_ENTERPRISE_USER}:manager` }] }), (ops) => applyPatch(added, ops)))
    expect(Either.getOrThrow(projectUser(removed)).managerReference).toBeNull()
    expect(Either.isRight(Either.flatMap(patchOperations({ Operations: [{ op: "Remove", path: `${SCIM_ENTERPRISE_USER}:manager` }] }), (ops) => applyPatch(removed, ops)))).toBe(true)
  })

  it("Okta: a replace without a path carrying a map of attributes, dotted names included", () => {
    expect(ok([{ op: "replace", value: { active: false } }]).active).toBe(false)
    expect(ok([{ op: "replace", value: { "name.givenName": "Anna", displayName: "Anna Lee" } }])).toMatchObject({
      name: { givenName: "Anna", familyName: "Lee" },
      displayName: "Anna Lee"
    })
  })

  it("the resource patched is a copy: the one read stays as it was", () => {
    ok([{ op: "replace", path: "active", value: false }])
    expect(user.active).toBe(true)
  })

  it("a body that is not a PatchOp, an unknown op, a remove without a path or an add without a value is refused with its scimType", () => {
    expect(refusal([])).toEqual(["invalidSyntax", "The body must be a SCIM PatchOp object"])
    expect(refusal({ Operations: [] })).toEqual(["invalidSyntax", "Operations must be a non-empty array"])
    expect(refusal({ Operations: [{ op: "merge", path: "active", value: true }] })).toEqual([
      "invalidSyntax",
      `Operations[0].op must be add, replace or remove, not "merge"`
    ])
    expect(refusal({ Operations: [{ op: "remove" }] })).toEqual(["noTarget", "Operations[0]: remove needs a path"])
    expect(refusal({ Operations: [{ op: "add", path: "title" }] })).toEqual(["invalidValue", "Operations[0]: add needs a value"])
    expect(refusal({ Operations: [{ op: "replace", value: false }] })).toEqual([
      "invalidValue",
      "Operations[0]: replace without a path needs an object of attributes as its value"
    ])
  })
})
