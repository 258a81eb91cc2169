import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { OrganizationId } from "@tks/domain/ids"
import { SCIM_ENTERPRISE_USER, SCIM_PATCH_OP, SCIM_USER } from "@tks/domain/scim"
import { FixtureImporter } from "../src/org-import/importer.js"
import { ScimUsers } from "../src/scim/users.js"

const TestLayer = Layer.mergeAll(ScimUsers.Default, FixtureImporter.Default).pipe(Layer.provideMerge(TestDatabaseLive))

/** An organization with a directory connection and `domain` verified; Ava (owner) and Ivy (invited earlier, same domain) already here. */
const connectedOrg = (name: string, domain: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const imported = yield* Effect.orDie(Effect.flatMap(FixtureImporter, (importer) =>
      importer.importOrganization({
        organization: { name },
        people: [
          { key: "ava", name: "Ava Owner", email: `ava@${domain}`, role: "owner" },
          { key: "ivy", name: "Ivy Early", email: `ivy@${domain}`, role: "viewer" }
        ]
      })))
    const orgId = OrganizationId.make(imported.organizationId)
    yield* sql`INSERT INTO directory_connections (org_id, status) VALUES (${orgId}, 'ACTIVE')`.pipe(Effect.orDie)
    yield* sql`INSERT INTO organization_domains (org_id, domain, verified_at, added_by) VALUES (${orgId}, ${domain}, now(), 'system:cli')`.pipe(Effect.orDie)
    return { caller: { orgId, status: "ACTIVE" as const }, people: imported.ids.people as Record<"ava" | "ivy", string> }
  })

/** The organization's directory events as [operation, outcome, reason], sorted (events a millisecond apart can share a time on PGlite). */
const eventsOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ operation: string; outcome: string; reason: string | null }>`
      SELECT operation, outcome, reason FROM directory_events WHERE org_id = ${orgId}`).pipe(
      Effect.map((rows) => rows.map((row) => [row.operation, row.outcome, row.reason]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))),
      Effect.orDie
    )

const sorted = (rows: ReadonlyArray<ReadonlyArray<string | null>>) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))

const countersOf = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ count_provisioned: number; count_updated: number; count_deactivated: number; count_skipped: number; synced: boolean }>`
      SELECT count_provisioned, count_updated, count_deactivated, count_skipped, last_sync_at IS NOT NULL AS synced
      FROM directory_connections WHERE org_id = ${orgId}`).pipe(Effect.map((rows) => rows[0]), Effect.orDie)

const personRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; email: string; name: string; directory_provisioned: boolean; manager_id: string | null; org_role: string }>`
      SELECT status, email, name, directory_provisioned, manager_id, org_role FROM users WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]), Effect.orDie)

const entraUser = (userName: string, externalId: string) => ({
  schemas: [SCIM_USER, SCIM_ENTERPRISE_USER],
  externalId,
  userName,
  active: true,
  emails: [{ primary: true, type: "work", value: userName }],
  name: { formatted: "Jo Doe", familyName: "Doe", givenName: "Jo" }
})

const patchOf = (...operations: ReadonlyArray<unknown>) => ({ schemas: [SCIM_PATCH_OP], Operations: operations })

layer(TestLayer)("the SCIM Users acts", (it) => {
  it.effect("Entra ID's sequence: create, the same create retried, find by filter, patch, deactivate, reactivate, delete, then not found until provisioned again", () =>
    Effect.gen(function*() {
      const users = yield* ScimUsers
      const { caller } = yield* connectedOrg("Scim Entra Org", "entra.test")
      const created = yield* users.create(caller, entraUser("jo@entra.test", "aad-1"))
      expect(yield* personRow(created.id)).toMatchObject({ status: "ACTIVE", name: "Jo Doe", directory_provisioned: true, org_role: "viewer" })
      const again = yield* users.create(caller, entraUser("jo@entra.test", "aad-1"))
      expect(again.id).toBe(created.id)
      const found = yield* users.list(caller, { filter: `userName eq "JO@entra.test"`, startIndex: 1, count: 10 })
      expect([found.total, found.records.map((record) => record.id)]).toEqual([1, [created.id]])

      yield* users.patch(caller, created.id, patchOf({ op: "Replace", path: "name.familyName", value: "Doe-Ray" }), null)
      expect((yield* personRow(created.id))!.name).toBe("Jo Doe")
      yield* users.patch(caller, created.id, patchOf({ op: "Replace", path: "displayName", value: "Jo Doe-Ray" }), null)
      expect((yield* personRow(created.id))!.name).toBe("Jo Doe-Ray")
      yield* users.patch(caller, created.id, patchOf({ op: "Replace", path: "active", value: "False" }), null)
      expect((yield* personRow(created.id))!.status).toBe("DEACTIVATED")
      yield* users.patch(caller, created.id, patchOf({ op: "replace", value: { active: true } }), null)
      expect((yield* personRow(created.id))!.status).toBe("ACTIVE")
      yield* users.remove(caller, created.id, null)
      expect((yield* personRow(created.id))!.status).toBe("DEACTIVATED")
      // Deleted: not found any more, by id, by filter or by a second DELETE; their records stay.
      expect((yield* Effect.flip(users.remove(caller, created.id, null)))._tag).toBe("ScimNotFound")
      expect((yield* Effect.flip(users.get(caller, created.id)))._tag).toBe("ScimNotFound")
      expect((yield* users.list(caller, { filter: `userName eq "jo@entra.test"`, startIndex: 1, count: 10 })).total).toBe(0)
      // Provisioned again: the same person, active again.
      expect((yield* users.create(caller, entraUser("jo@entra.test", "aad-1"))).id).toBe(created.id)
      expect((yield* personRow(created.id))!.status).toBe("ACTIVE")

      expect(yield* eventsOf(caller.orgId)).toEqual(sorted([
        ["CREATE", "APPLIED", null],
        ["CREATE", "SKIPPED", "ALREADY_PROVISIONED"],
        ["LIST", "APPLIED", null],
        ["UPDATE", "APPLIED", null],
        ["UPDATE", "APPLIED", null],
        ["DEACTIVATE", "APPLIED", null],
        ["REACTIVATE", "APPLIED", null],
        ["DELETE", "APPLIED", null],
        ["DELETE", "REJECTED", "NOT_FOUND"],
        ["LIST", "REJECTED", "NOT_FOUND"],
        ["LIST", "APPLIED", null],
        ["CREATE", "APPLIED", null]
      ]))
      expect(yield* countersOf(caller.orgId)).toEqual({ count_provisioned: 2, count_updated: 3, count_deactivated: 2, count_skipped: 1, synced: true })
    }))

  it.effect("a person already here by email is taken over, not duplicated; a manager named by externalId is linked, and one named before they exist once they arrive", () =>
    Effect.gen(function*() {
      const users = yield* ScimUsers
      const { caller, people } = yield* connectedOrg("Scim Link Org", "link.test")
      const ivy = yield* users.create(caller, { ...entraUser("ivy.e@link.test", "aad-ivy"), emails: [{ value: "IVY@link.test", primary: true }] })
      expect(ivy.id).toBe(people.ivy)
      expect(yield* personRow(people.ivy)).toMatchObject({ directory_provisioned: true, email: "ivy@link.test" })
      const report = yield* users.create(caller, { ...entraUser("rex@link.test", "aad-rex"), [SCIM_ENTERPRISE_USER]: { manager: { value: "aad-boss" } } })
      expect((yield* personRow(report.id))!.manager_id).toBeNull()
      expect(report.manager).toEqual({ value: "aad-boss", displayName: null })
      const boss = yield* users.create(caller, entraUser("boss@link.test", "aad-boss"))
      expect((yield* personRow(report.id))!.manager_id).toBe(boss.id)
      yield* users.patch(caller, report.id, patchOf({ op: "Add", path: `${SCIM_ENTERPRISE_USER}:manager`, value: people.ivy }), null)
      expect((yield* personRow(report.id))!.manager_id).toBe(people.ivy)
    }))

  it.effect("an email outside the verified domains is SKIPPED with DOMAIN_MISMATCH and nobody is created; another's userName is a 409 REJECTED", () =>
    Effect.gen(function*() {
      const users = yield* ScimUsers
      const sql = yield* SqlClient.SqlClient
      const { caller } = yield* connectedOrg("Scim Domain Org", "domain.test")
      const before = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE org_id = ${caller.orgId}`)[0]!.n
      const skipped = yield* Effect.flip(users.create(caller, entraUser("eve@fabrikam.test", "aad-eve")))
      expect(skipped).toMatchObject({ scimType: "invalidValue", skipped: "DOMAIN_MISMATCH" })
      const jo = yield* users.create(caller, entraUser("jo@domain.test", "aad-jo"))
      const clash = yield* Effect.flip(users.create(caller, entraUser("jo@domain.test", "aad-other")))
      expect(clash).toMatchObject({ scimType: "uniqueness", status: 409 })
      const renamed = yield* Effect.flip(users.patch(caller, jo.id, patchOf({ op: "replace", path: "userName", value: "AVA@domain.test" }), null))
      expect(renamed).toMatchObject({ scimType: "uniqueness" })
      expect((yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE org_id = ${caller.orgId}`)[0]!.n).toBe(before + 1)
      expect(yield* eventsOf(caller.orgId)).toEqual(sorted([
        ["CREATE", "SKIPPED", "DOMAIN_MISMATCH"],
        ["CREATE", "APPLIED", null],
        ["CREATE", "REJECTED", "UNIQUENESS"],
        ["UPDATE", "REJECTED", "UNIQUENESS"]
      ]))
      expect(yield* countersOf(caller.orgId)).toMatchObject({ count_provisioned: 1, count_skipped: 1 })
    }))

  it.effect("If-Match with another version is refused and nothing changes; an unknown or another organization's id is not found; a bad filter is invalidFilter", () =>
    Effect.gen(function*() {
      const users = yield* ScimUsers
      const { caller } = yield* connectedOrg("Scim Version Org", "version.test")
      const other = yield* connectedOrg("Scim Version Other Org", "version-other.test")
      const jo = yield* users.create(caller, entraUser("jo@version.test", "aad-jo"))
      const stale = yield* Effect.flip(users.patch(caller, jo.id, patchOf({ op: "replace", path: "active", value: false }), `W/"1"`))
      expect(stale._tag).toBe("ScimVersionMismatch")
      expect((yield* personRow(jo.id))!.status).toBe("ACTIVE")
      expect((yield* Effect.flip(users.get(other.caller, jo.id)))._tag).toBe("ScimNotFound")
      expect((yield* Effect.flip(users.remove(other.caller, jo.id, null)))._tag).toBe("ScimNotFound")
      expect(yield* Effect.flip(users.list(caller, { filter: `title eq "x"`, startIndex: 1, count: 10 }))).toMatchObject({ scimType: "invalidFilter" })
    }))
})
