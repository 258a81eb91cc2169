import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { FixtureImporter } from "../src/org-import/importer.js"
import { scimFilterSql } from "../src/scim/filter.js"
import { projectUser } from "../src/scim/user-resource.js"
import { ScimUsersRepo } from "../src/scim/users-repo.js"

const TestLayer = Layer.mergeAll(ScimUsersRepo.Default, FixtureImporter.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const importOrg = (name: string) =>
  Effect.gen(function*() {
    const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
      importer.importOrganization({
        organization: { name },
        people: [
          { key: "ava", name: "Ava Owner", email: "ava@scim.test", role: "owner" },
          { key: "max", name: "Max Member", email: "max@scim.test", role: "viewer" }
        ]
      })))
    return { orgId: OrganizationId.make(imported.organizationId), people: imported.ids.people as Record<"ava" | "max", string> }
  })

const person = (body: Record<string, unknown>) =>
  Either.getOrThrow(projectUser({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], ...body }))

layer(TestLayer)("people as the SCIM Users endpoint stores them", (it) => {
  it.effect("a provisioned person is a viewer who has not signed up, in the directory's charge, read back with what was sent", () =>
    Effect.gen(function*() {
      const repo = yield* ScimUsersRepo
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* importOrg("Scim Repo Org")
      const id = yield* repo.insert(orgId, person({ userName: "Zoe@Scim.test", externalId: "ext-zoe", name: { givenName: "Zoe", familyName: "Park" } }), null)
      const [row] = yield* sql`SELECT org_role, signed_up, directory_provisioned, status, email FROM users WHERE id = ${id}`
      expect(row).toEqual({ org_role: "viewer", signed_up: false, directory_provisioned: true, status: "ACTIVE", email: "zoe@scim.test" })
      const record = yield* repo.find(orgId, id)
      expect(record).toMatchObject({ id, name: "Zoe Park", userName: "Zoe@Scim.test", externalId: "ext-zoe", active: true, manager: null })
      expect(record!.attributes).toEqual({ name: { givenName: "Zoe", familyName: "Park" } })
      // Another organization does not find them.
      const other = yield* importOrg("Scim Repo Other Org")
      expect(yield* repo.find(other.orgId, id)).toBeUndefined()
    }))

  it.effect("a filter pages through the organization's people only, with the total", () =>
    Effect.gen(function*() {
      const repo = yield* ScimUsersRepo
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* importOrg("Scim Page Org")
      yield* importOrg("Scim Page Other Org")
      for (const n of [1, 2, 3]) yield* repo.insert(orgId, person({ userName: `p${n}@scim.test` }), null)
      const where = (text: string) => Either.getOrThrow(scimFilterSql(sql, repo.attributes, text))
      const everyone = yield* repo.page(orgId, null, 1, 100)
      expect(everyone.total).toBe(5)
      const byName = yield* repo.page(orgId, where(`userName eq "P2@SCIM.TEST"`), 1, 100)
      expect(byName.records.map((record) => record.userName)).toEqual(["p2@scim.test"])
      // Pages follow one order (creation, then id: PGlite's clock can give two rows the same millisecond).
      const all = (yield* repo.page(orgId, where(`userName sw "p"`), 1, 100)).records.map((record) => record.userName)
      expect([...all].sort()).toEqual(["p1@scim.test", "p2@scim.test", "p3@scim.test"])
      const second = yield* repo.page(orgId, where(`userName sw "p"`), 2, 1)
      expect([second.total, second.records.map((record) => record.userName)]).toEqual([3, [all[1]]])
      expect((yield* repo.page(orgId, where(`userName sw "p"`), 1, 0)).records).toEqual([])
      expect((yield* repo.page(orgId, where(`emails.value eq "ava@scim.test"`), 1, 10)).records.map((record) => record.name)).toEqual(["Ava Owner"])
    }))

  it.effect("an update says whether anything changed, and a manager named before they exist is linked when they arrive", () =>
    Effect.gen(function*() {
      const repo = yield* ScimUsersRepo
      const { orgId, people } = yield* importOrg("Scim Update Org")
      // Max is already here: found by email for a directory's create, then taken in charge.
      const found = yield* repo.findForCreate(orgId, "max.m@corp.test", "max@scim.test")
      expect(found).toMatchObject({ id: people.max, by: "email" })
      const max = person({ userName: "max.m@corp.test", emails: [{ value: "max@scim.test", primary: true }], externalId: "ext-max" })
      const withBoss = { ...max, managerReference: "ext-boss" }
      expect(yield* repo.update(orgId, people.max, withBoss, null)).toBe(true)
      expect(yield* repo.update(orgId, people.max, withBoss, null)).toBe(false)
      expect((yield* repo.find(orgId, people.max))!.manager).toEqual({ value: "ext-boss", displayName: null })
      // The boss arrives with that externalId: Max now reports to them by id.
      const bossId = yield* repo.insert(orgId, person({ userName: "boss@scim.test", externalId: "ext-boss", displayName: "Bo Boss" }), null)
      expect(yield* repo.resolveManager(orgId, "ext-boss")).toBe(bossId)
      expect(yield* repo.resolveManager(orgId, "BOSS@scim.test")).toBe(bossId)
      expect(yield* repo.resolveManager(orgId, "nobody")).toBeUndefined()
      yield* repo.linkReports(orgId, bossId, [bossId, "ext-boss", "boss@scim.test"])
      expect((yield* repo.find(orgId, people.max))!.manager).toEqual({ value: bossId, displayName: "Bo Boss" })
      // Someone else's userName or email is found as theirs.
      expect(yield* repo.holderOtherThan(orgId, bossId, "max.m@corp.test", "nobody@scim.test")).toEqual({ id: people.max, by: "userName" })
      expect(yield* repo.holderOtherThan(orgId, bossId, "free@scim.test", "ava@scim.test")).toEqual({ id: people.ava, by: "email" })
      expect(yield* repo.holderOtherThan(orgId, bossId, "boss@scim.test", "boss@scim.test")).toBeUndefined()
    }))
})
