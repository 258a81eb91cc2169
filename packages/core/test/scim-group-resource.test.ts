import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { SCIM_GROUP } from "@tks/domain/scim"
import { applyPatch, patchOperations } from "../src/scim/patch.js"
import { groupResource, projectGroup } from "../src/scim/group-resource.js"

const projected = (body: unknown) => Either.getOrThrow(projectGroup(body))
const refused = (body: unknown) => Either.match(projectGroup(body), { onLeft: (error) => error.detail, onRight: () => "accepted" })

const sales = {
  id: "team_1",
  name: "Sales",
  externalId: "grp-1",
  members: [{ id: "usr_1", name: "Ann Lee" }, { id: "usr_2", name: "Bob Ray" }],
  created: new Date("2026-11-01T00:00:00Z")
}

describe("a team as a SCIM Group", () => {
  it("a create as Entra ID sends it: the name, the externalId, members by id (each once)", () => {
    expect(projected({ schemas: [SCIM_GROUP], externalId: "8aa1a0c0", displayName: " Sales ", members: [{ value: "usr_1" }, { value: "usr_1" }, { value: "usr_2", display: "Bob" }] }))
      .toEqual({ displayName: "Sales", externalId: "8aa1a0c0", memberIds: ["usr_1", "usr_2"] })
    expect(projected({ displayName: "Sales" }).memberIds).toBeNull()
  })

  it("no name, members that are not a list, or a member without an id is refused with why", () => {
    expect(refused({ displayName: "" })).toBe("displayName is required, a non-empty string")
    expect(refused({ displayName: "Sales", members: { value: "usr_1" } })).toBe("members must be an array")
    expect(refused({ displayName: "Sales", members: [{ display: "Ann" }] })).toBe("members[0].value must be a person's id")
  })

  it("answered with its members and their references, or without them when asked", () => {
    expect(groupResource(sales, "https://tks.example/scim/v2")).toEqual({
      schemas: [SCIM_GROUP],
      id: "team_1",
      externalId: "grp-1",
      displayName: "Sales",
      members: [
        { value: "usr_1", display: "Ann Lee", $ref: "https://tks.example/scim/v2/Users/usr_1" },
        { value: "usr_2", display: "Bob Ray", $ref: "https://tks.example/scim/v2/Users/usr_2" }
      ],
      meta: { resourceType: "Group", created: "2026-11-01T00:00:00.000Z", location: "https://tks.example/scim/v2/Groups/team_1" }
    })
    expect(groupResource(sales, "/scim/v2", { members: false })).not.toHaveProperty("members")
  })

  it("membership patches as Entra ID and Okta send them: add members, remove one by a value filter, replace the name", () => {
    const resource = groupResource(sales, "/scim/v2")
    const patch = (operations: ReadonlyArray<unknown>) =>
      Either.getOrThrow(Either.flatMap(patchOperations({ Operations: operations }), (ops) => applyPatch(resource, ops)))
    expect(projected(patch([{ op: "Add", path: "members", value: [{ value: "usr_3" }] }])).memberIds).toEqual(["usr_1", "usr_2", "usr_3"])
    expect(projected(patch([{ op: "remove", path: `members[value eq "usr_1"]` }])).memberIds).toEqual(["usr_2"])
    expect(projected(patch([{ op: "replace", value: { id: "team_1", displayName: "Sales EMEA" } }])).displayName).toBe("Sales EMEA")
    // A member already removed: removing again changes nothing and is not an error.
    expect(projected(patch([{ op: "remove", path: `members[value eq "usr_9"]` }])).memberIds).toEqual(["usr_1", "usr_2"])
  })
})
