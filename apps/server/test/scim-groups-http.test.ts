import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SCIM_GROUP, SCIM_PATCH_OP, SCIM_USER } from "@tks/domain/scim"
import { provisioned, SCIM, scim } from "./support/scim.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * The SCIM Groups endpoint over HTTP, as Entra ID and Okta drive it: a
 * group is a team, its members the team's people; the sequence (create
 * with members, find by name, add and remove members, rename, delete) and
 * what /v1 shows of the team after each step.
 */

const person = (directory: string, userName: string) =>
  Effect.map(
    scim("POST", "/Users", directory, { schemas: [SCIM_USER], userName, emails: [{ value: userName, primary: true }], active: true }),
    (response) => response.json.id as string
  )

/** The names of the team's active members, as /v1 lists them. */
const teamMembers = (owner: string, teamId: string) =>
  Effect.map(raw("GET", `/v1/members?teamId=${teamId}&limit=100`, { token: owner }), (response) =>
    (response.json.data as Array<{ email: string }>).map((member) => member.email).sort())

layer(TestServerLive, { excludeTestServices: true })("SCIM Groups over /scim/v2", (it) => {
  it.effect("Entra ID's and Okta's sequence: create with members, find by name, add, remove, rename, delete; the team in /v1 follows each step", () =>
    Effect.gen(function*() {
      const { owner, directory } = yield* provisioned("Scim Groups Org", "scim-groups.test")
      const jo = yield* person(directory, "jo@scim-groups.test")
      const max = yield* person(directory, "max@scim-groups.test")

      const created = yield* scim("POST", "/Groups", directory, { schemas: [SCIM_GROUP], externalId: "grp-1", displayName: "Forklift Crew", members: [{ value: jo }] })
      expect(created.status, created.text).toBe(201)
      expect(created.headers.get("content-type")).toBe(SCIM)
      const id: string = created.json.id
      expect(created.json).toMatchObject({ displayName: "Forklift Crew", externalId: "grp-1", members: [{ value: jo, display: "jo@scim-groups.test" }] })
      expect(yield* teamMembers(owner, id)).toEqual(["jo@scim-groups.test"])

      const found = yield* scim("GET", `/Groups?filter=${encodeURIComponent(`displayName eq "forklift crew"`)}&excludedAttributes=members`, directory)
      expect([found.json.totalResults, found.json.Resources[0].id, found.json.Resources[0].members]).toEqual([1, id, undefined])

      const added = yield* scim("PATCH", `/Groups/${id}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Add", path: "members", value: [{ value: max }] }] })
      expect(added.status, added.text).toBe(200)
      expect(yield* teamMembers(owner, id)).toEqual(["jo@scim-groups.test", "max@scim-groups.test"])
      yield* scim("PATCH", `/Groups/${id}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${jo}"]` }] })
      expect(yield* teamMembers(owner, id)).toEqual(["max@scim-groups.test"])
      // The same removal again (a retry): nothing changes, nothing fails.
      expect((yield* scim("PATCH", `/Groups/${id}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${jo}"]` }] })).status).toBe(200)
      const renamed = yield* scim("PATCH", `/Groups/${id}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "replace", value: { id, displayName: "Forklift Team" } }] })
      expect(renamed.json.displayName).toBe("Forklift Team")

      expect((yield* scim("DELETE", `/Groups/${id}`, directory)).status).toBe(204)
      expect((yield* scim("GET", `/Groups/${id}`, directory)).status).toBe(404)
      expect(yield* teamMembers(owner, id)).toEqual([])

      const connection = (yield* raw("GET", "/v1/directory-sync", { token: owner })).json.connection
      // Two people provisioned; the group's requests count no people.
      expect(connection).toMatchObject({ countProvisioned: 2, countUpdated: 0, countDeactivated: 0 })
    }))

  it.effect("another organization's directory finds no group of this one; a member the organization does not know is left out", () =>
    Effect.gen(function*() {
      const first = yield* provisioned("Scim Groups Matrix Org", "scim-groups-matrix.test")
      const other = yield* provisioned("Scim Groups Matrix Other Org", "scim-groups-other.test")
      const created = yield* scim("POST", "/Groups", first.directory, { displayName: "Night Shift", members: [{ value: "usr_not_here" }] })
      expect([created.status, created.json.members]).toEqual([201, []])
      const id: string = created.json.id
      expect((yield* scim("GET", `/Groups/${id}`, other.directory)).status).toBe(404)
      expect((yield* scim("DELETE", `/Groups/${id}`, other.directory)).status).toBe(404)
      expect((yield* scim("GET", "/Groups", other.directory)).json.totalResults).toBe(0)
      expect((yield* scim("POST", "/Groups", first.directory, { members: [] })).json).toMatchObject({ status: "400", scimType: "invalidValue" })
    }))
})
