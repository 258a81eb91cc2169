import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { FixtureImporter } from "../src/org-import/importer.js"
import { scimFilterSql } from "../src/scim/filter.js"
import { ScimGroupsRepo } from "../src/scim/groups-repo.js"

const TestLayer = Layer.mergeAll(ScimGroupsRepo.Default, FixtureImporter.Default).pipe(Layer.provideMerge(TestDatabaseLive))

/** Ann (team admin of Sales), Bob (viewer in it), Cat (in no team). */
const importOrg = (name: string) =>
  Effect.gen(function*() {
    const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
      importer.importOrganization({
        organization: { name },
        people: [
          { key: "ann", name: "Ann Lee", email: "ann@groups.test", role: "owner" },
          { key: "bob", name: "Bob Ray", email: "bob@groups.test", role: "viewer" },
          { key: "cat", name: "Cat Noor", email: "cat@groups.test", role: "viewer" }
        ],
        teams: [{ key: "sales", name: "Sales", members: [{ person: "ann", role: "team-admin" }, { person: "bob" }] }]
      })))
    return {
      orgId: OrganizationId.make(imported.organizationId),
      people: imported.ids.people as Record<"ann" | "bob" | "cat", string>,
      sales: imported.ids.teams["sales"]!
    }
  })

const rolesIn = (teamId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ user_id: string; role: string }>`SELECT user_id, role FROM team_members WHERE team_id = ${teamId} ORDER BY user_id`).pipe(Effect.orDie)

layer(TestLayer)("teams as the SCIM Groups endpoint stores them", (it) => {
  it.effect("a team already here is a group with its members; found by name in any case; another organization's is not", () =>
    Effect.gen(function*() {
      const repo = yield* ScimGroupsRepo
      const sql = yield* SqlClient.SqlClient
      const { orgId, people, sales } = yield* importOrg("Groups Repo Org")
      const record = yield* repo.find(orgId, sales)
      expect(record).toMatchObject({ id: sales, name: "Sales", externalId: null })
      expect(record!.members.map((member) => member.id).sort()).toEqual([people.ann, people.bob].sort())
      expect(yield* repo.findByName(orgId, "SALES")).toBe(sales)
      const other = yield* importOrg("Groups Repo Other Org")
      expect(yield* repo.find(other.orgId, sales)).toBeUndefined()
      const byName = yield* repo.page(orgId, Either.getOrThrow(scimFilterSql(sql, repo.attributes, `displayName eq "sales"`)), 1, 10, false)
      expect([byName.total, byName.records.map((group) => [group.id, group.members])]).toEqual([1, [[sales, []]]])
    }))

  it.effect("members set as the directory says: the missing leave, the new join as viewers, a team admin who stays keeps the role, unknown ids are answered back", () =>
    Effect.gen(function*() {
      const repo = yield* ScimGroupsRepo
      const { orgId, people, sales } = yield* importOrg("Groups Members Org")
      const changed = yield* repo.setMembers(orgId, sales, [people.ann, people.cat, "usr_unknown"])
      expect(changed).toEqual({ joined: [people.cat], left: [people.bob], unknown: ["usr_unknown"] })
      expect(yield* rolesIn(sales)).toEqual(
        [{ user_id: people.ann, role: "team-admin" }, { user_id: people.cat, role: "team-viewer" }].sort((a, b) => a.user_id.localeCompare(b.user_id))
      )
      expect(yield* repo.setMembers(orgId, sales, [people.ann, people.cat])).toEqual({ joined: [], left: [], unknown: [] })
    }))

  it.effect("a new group is a new team; renaming says whether it changed; a deleted group's team loses its members and is no group, until taken over again", () =>
    Effect.gen(function*() {
      const repo = yield* ScimGroupsRepo
      const { orgId, people, sales } = yield* importOrg("Groups Remove Org")
      const ops = yield* repo.insert(orgId, "Ops", "grp-ops")
      expect(yield* repo.find(orgId, ops)).toMatchObject({ name: "Ops", externalId: "grp-ops", members: [] })
      expect(yield* repo.update(orgId, ops, "Operations", "grp-ops")).toBe(true)
      expect(yield* repo.update(orgId, ops, "Operations", "grp-ops")).toBe(false)

      expect(yield* repo.remove(orgId, sales)).toBe(true)
      expect(yield* repo.remove(orgId, sales)).toBe(false)
      expect(yield* repo.find(orgId, sales)).toBeUndefined()
      expect(yield* rolesIn(sales)).toEqual([])
      expect((yield* repo.page(orgId, null, 1, 10, true)).records.map((group) => group.name)).toEqual(["Operations"])
      // A group named the same later takes the team over again.
      expect(yield* repo.findByName(orgId, "sales")).toBe(sales)
      expect(yield* repo.update(orgId, sales, "Sales", "grp-sales")).toBe(true)
      yield* repo.setMembers(orgId, sales, [people.bob])
      expect((yield* repo.find(orgId, sales))!.members).toEqual([{ id: people.bob, name: "Bob Ray" }])
    }))
})
