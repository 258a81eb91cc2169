import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SCIM_ENTERPRISE_USER, SCIM_GROUP, SCIM_PATCH_OP, SCIM_USER } from "@tks/domain/scim"
import { provisioned, scim } from "./support/scim.js"
import { query } from "./support/assigners.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * Request sequences in the shapes Entra ID's and Okta's provisioning
 * agents send (their public SCIM guides), replayed end to end, each twice:
 * the second run lands on the same people and team, nothing duplicated.
 */

interface Run {
  readonly statuses: Array<number>
  userId?: string
  groupId?: string
}

const USERS = "/Users"
const GROUPS = "/Groups"

const step = (run: Run, response: { readonly status: number; readonly text: string }, expected: ReadonlyArray<number>) => {
  run.statuses.push(response.status)
  expect(expected, `${response.status} ${response.text}`).toContain(response.status)
}

/** Entra ID: match by userName, create, update attributes, set the manager, group membership, disable, delete. */
const entraSequence = (directory: string, domain: string, managerId: string) =>
  Effect.gen(function*() {
    const run: Run = { statuses: [] }
    const userName = `Test_User_ab6490ee@${domain}`
    const filter = encodeURIComponent(`userName eq "${userName}"`)
    step(run, yield* scim("GET", `${USERS}?filter=${filter}`, directory), [200])
    const created = yield* scim("POST", USERS, directory, {
      schemas: [SCIM_USER, SCIM_ENTERPRISE_USER],
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      userName,
      active: true,
      emails: [{ primary: true, type: "work", value: userName }],
      meta: { resourceType: "User" },
      name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
      roles: []
    })
    step(run, created, [201])
    run.userId = created.json.id
    step(run, yield* scim("GET", `${USERS}?filter=${filter}`, directory), [200])
    step(run, yield* scim("PATCH", `${USERS}/${run.userId}`, directory, {
      schemas: [SCIM_PATCH_OP],
      Operations: [
        { op: "Replace", path: `emails[type eq "work"].value`, value: userName },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
        { op: "Add", path: "phoneNumbers[type eq \"mobile\"].value", value: "+1 555 010 0042" }
      ]
    }), [200])
    step(run, yield* scim("PATCH", `${USERS}/${run.userId}`, directory, {
      schemas: [SCIM_PATCH_OP],
      Operations: [{ op: "Add", path: `${SCIM_ENTERPRISE_USER}:manager`, value: managerId }]
    }), [200])
    const groupFilter = encodeURIComponent(`displayName eq "Entra Group"`)
    step(run, yield* scim("GET", `${GROUPS}?excludedAttributes=members&filter=${groupFilter}`, directory), [200])
    const group = yield* scim("POST", GROUPS, directory, { schemas: [SCIM_GROUP], externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159", displayName: "Entra Group", meta: { resourceType: "Group" } })
    step(run, group, [201])
    run.groupId = group.json.id
    step(run, yield* scim("PATCH", `${GROUPS}/${run.groupId}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Add", path: "members", value: [{ value: run.userId }] }] }), [200])
    step(run, yield* scim("PATCH", `${GROUPS}/${run.groupId}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Remove", path: "members", value: [{ value: run.userId }] }] }), [200])
    step(run, yield* scim("PATCH", `${GROUPS}/${run.groupId}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Add", path: "members", value: [{ value: run.userId }] }] }), [200])
    step(run, yield* scim("PATCH", `${USERS}/${run.userId}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] }), [200])
    step(run, yield* scim("DELETE", `${USERS}/${run.userId}`, directory), [204])
    return run
  })

/** Okta: look up, create (with a password, never kept), read, replace the profile (PUT), push a group, deactivate. */
const oktaSequence = (directory: string, domain: string) =>
  Effect.gen(function*() {
    const run: Run = { statuses: [] }
    const userName = `test.user@${domain}`
    const resource = {
      schemas: [SCIM_USER],
      userName,
      name: { givenName: "Test", familyName: "User" },
      emails: [{ primary: true, value: userName, type: "work" }],
      displayName: "Test User",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true
    }
    step(run, yield* scim("GET", `${USERS}?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`, directory), [200])
    const created = yield* scim("POST", USERS, directory, resource)
    step(run, created, [201])
    run.userId = created.json.id
    expect(created.text).not.toContain("1mz050nq")
    step(run, yield* scim("GET", `${USERS}/${run.userId}`, directory), [200])
    step(run, yield* scim("PUT", `${USERS}/${run.userId}`, directory, { ...resource, id: run.userId, name: { givenName: "Another", familyName: "User" }, displayName: "Another User" }), [200])
    const group = yield* scim("POST", GROUPS, directory, { schemas: [SCIM_GROUP], displayName: "Test SCIMv2", members: [] })
    step(run, group, [201])
    run.groupId = group.json.id
    step(run, yield* scim("PATCH", `${GROUPS}/${run.groupId}`, directory, {
      schemas: [SCIM_PATCH_OP],
      Operations: [{ op: "replace", value: { id: run.groupId, displayName: "Test SCIMv2" } }, { op: "add", path: "members", value: [{ value: run.userId, display: userName }] }]
    }), [200])
    const removed = yield* scim("PATCH", `${GROUPS}/${run.groupId}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${run.userId}"]` }] })
    step(run, removed, [200])
    step(run, yield* scim("PATCH", `${USERS}/${run.userId}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] }), [200])
    return run
  })

const peopleAndTeams = (orgId: string) =>
  query((sql) =>
    sql<{ people: number; teams: number; members: number }>`
      SELECT (SELECT count(*)::int FROM users WHERE org_id = ${orgId}) AS people,
        (SELECT count(*)::int FROM teams WHERE org_id = ${orgId}) AS teams,
        (SELECT count(*)::int FROM team_members WHERE org_id = ${orgId}) AS members`)

layer(TestServerLive, { excludeTestServices: true })("directory request sequences, as Entra ID and Okta send them", (it) => {
  it.effect("Entra ID's sequence passes end to end, twice, onto the same person and team; /v1 and the directory events show it", () =>
    Effect.gen(function*() {
      const { orgId, owner, directory } = yield* provisioned("Entra Sequence Org", "entra-seq.test")
      const managerId = (yield* raw("GET", "/v1/members?query=boss", { token: owner })).json.data[0].id as string
      const first = yield* entraSequence(directory, "entra-seq.test", managerId)
      const afterFirst = yield* peopleAndTeams(orgId)
      const second = yield* entraSequence(directory, "entra-seq.test", managerId)
      expect([second.userId, second.groupId]).toEqual([first.userId, first.groupId])
      expect(second.statuses).toEqual(first.statuses)
      expect(yield* peopleAndTeams(orgId)).toEqual(afterFirst)
      expect(afterFirst).toEqual([{ people: 2, teams: 1, members: 1 }])

      const member = (yield* raw("GET", `/v1/members?status=all&teamId=${first.groupId}`, { token: owner })).json.data
      expect(member).toMatchObject([{ id: first.userId, name: "givenName familyName", status: "DEACTIVATED", phone: "+15550100042", directoryManaged: true, reportsTo: { id: managerId } }])
      const events = (yield* raw("GET", "/v1/directory-sync/events?limit=100", { token: owner })).json.data as Array<any>
      // The person created in each run (the first run ended by deleting them), the group once (the second run's create is SKIPPED).
      expect(events.filter((event) => event.operation === "CREATE" && event.outcome === "APPLIED").length).toBe(3)
      expect(events.filter((event) => event.operation === "CREATE" && event.outcome === "SKIPPED").length).toBe(1)
      expect(events.filter((event) => event.operation === "DELETE" && event.outcome === "APPLIED").length).toBe(2)
      expect(events.every((event) => event.outcome === "APPLIED" || event.outcome === "SKIPPED")).toBe(true)
    }))

  it.effect("Okta's sequence passes end to end, twice, onto the same person and team; the password is never kept", () =>
    Effect.gen(function*() {
      const { orgId, owner, directory } = yield* provisioned("Okta Sequence Org", "okta-seq.test")
      const first = yield* oktaSequence(directory, "okta-seq.test")
      const second = yield* oktaSequence(directory, "okta-seq.test")
      expect([second.userId, second.groupId]).toEqual([first.userId, first.groupId])
      expect(yield* peopleAndTeams(orgId)).toEqual([{ people: 2, teams: 1, members: 0 }])
      const kept = yield* query((sql) => sql<{ attributes: string }>`SELECT scim_attributes::text AS attributes FROM users WHERE id = ${first.userId!}`)
      expect(kept[0]!.attributes).not.toContain("1mz050nq")
      const person = (yield* raw("GET", `/v1/members?status=all&query=test.user`, { token: owner })).json.data
      expect(person).toMatchObject([{ id: first.userId, name: "Another User", status: "DEACTIVATED", directoryManaged: true }])
      const events = (yield* raw("GET", "/v1/directory-sync/events?limit=100", { token: owner })).json.data as Array<any>
      const count = (operation: string, outcome: string) => events.filter((event) => event.operation === operation && event.outcome === outcome).length
      // The person and the group created once; the second run's creates are SKIPPED as already provisioned; deactivated in each run.
      expect([count("CREATE", "APPLIED"), count("CREATE", "SKIPPED"), count("DEACTIVATE", "APPLIED")]).toEqual([2, 2, 2])
      expect(events.filter((event) => event.userName === "test.user@okta-seq.test").length).toBeGreaterThan(0)
    }))
})
