import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import { CompanyRoles } from "../src/company-roles/service.js"
import { MemberProgressList } from "../src/members/progress.js"
import { Members } from "../src/members/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { importedOnce } from "./support/access.js"
import { countedCounts, countsFixture, expectExactCounts } from "./support/member-counts.js"

/**
 * The member counts kept beside the rows (migration 0016) stay equal to a
 * count of the rows after every kind of write people and role holdings see:
 * the import, someone joining, leaving, being removed, a directory sync
 * changing many at once, edits that change no count, and role holdings taken
 * on, ended, moved and removed. The listings answer them.
 */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default, MemberProgressList.Default, CompanyRoles.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

const setup = importedOnce({
  counts: countsFixture("Counts", "counts.test"),
  elsewhere: countsFixture("Elsewhere", "elsewhere.test")
})

const exact = Effect.flatMap(setup, ({ counts }) => expectExactCounts(counts, "ann"))

layer(TestLayer)("kept member counts", (it) => {
  it.effect("the import leaves each organization's member and role counts equal to a count of its rows", () =>
    Effect.gen(function*() {
      const { counts, elsewhere } = yield* setup
      const counted = yield* expectExactCounts(counts, "ann")
      expect(counted).toEqual({
        active: 5,
        deactivated: 1,
        signedUp: 5,
        roles: { [counts.roleId("ops")]: 2, [counts.roleId("desk")]: 3 }
      })
      yield* expectExactCounts(elsewhere, "ann")
    }))

  it.effect("someone who joins (an invitation accepted) is counted active and signed up, and in the role they take on", () =>
    Effect.gen(function*() {
      const { counts } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = counts.organizationId
      yield* sql`INSERT INTO invitations (org_id, id, name, email, org_role, expires_at)
        VALUES (${org}, 'inv_gus', 'Gus Joiner', 'gus@counts.test', 'viewer', now() + interval '1 day')`
      yield* sql.withTransaction(Effect.all([
        sql`INSERT INTO users (org_id, id, name, email, org_role) VALUES (${org}, 'usr_gus', 'Gus Joiner', 'gus@counts.test', 'viewer')`,
        sql`UPDATE invitations SET accepted_at = now() WHERE org_id = ${org} AND id = 'inv_gus'`,
        sql`INSERT INTO role_members (org_id, role_id, user_id) VALUES (${org}, ${counts.roleId("idle")}, 'usr_gus')`
      ]))
      const counted = yield* exact
      expect([counted.active, counted.signedUp, counted.roles[counts.roleId("idle")]]).toEqual([6, 6, 1])
    }))

  it.effect("someone deactivated leaves the active count and the roles they hold, not those they held before; reactivated they return", () =>
    Effect.gen(function*() {
      const { counts } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = counts.organizationId
      const before = yield* countedCounts(org)
      yield* sql`UPDATE users SET status = 'DEACTIVATED', deactivated_at = now() WHERE org_id = ${org} AND id = ${counts.userId("bob")}`
      const deactivated = yield* exact
      expect(deactivated.active).toBe(before.active - 1)
      expect(deactivated.deactivated).toBe(before.deactivated + 1)
      expect(deactivated.roles[counts.roleId("ops")]).toBe(before.roles[counts.roleId("ops")]! - 1)
      expect(deactivated.roles[counts.roleId("desk")]).toBe(before.roles[counts.roleId("desk")]! - 1)
      // Fay's Ops holding ended: deactivating her changes no role count.
      yield* sql`UPDATE users SET status = 'DEACTIVATED', deactivated_at = now() WHERE org_id = ${org} AND id = ${counts.userId("fay")}`
      expect((yield* exact).roles).toEqual(deactivated.roles)
      yield* sql`UPDATE users SET status = 'ACTIVE', deactivated_at = NULL
        WHERE org_id = ${org} AND id IN (${counts.userId("bob")}, ${counts.userId("fay")})`
      expect(yield* exact).toEqual(before)
    }))

  it.effect("a directory sync deactivating and reactivating several people in single statements keeps every count", () =>
    Effect.gen(function*() {
      const { counts } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = counts.organizationId
      const before = yield* countedCounts(org)
      yield* sql`UPDATE users SET status = CASE WHEN status = 'ACTIVE' THEN 'DEACTIVATED' ELSE 'ACTIVE' END, updated_at = now()
        WHERE org_id = ${org} AND id IN (${counts.userId("bob")}, ${counts.userId("dee")}, ${counts.userId("eve")}, ${counts.userId("cid")})`
      const swapped = yield* exact
      expect(swapped.active).toBe(before.active - 2)
      yield* sql`UPDATE users SET status = CASE WHEN status = 'ACTIVE' THEN 'DEACTIVATED' ELSE 'ACTIVE' END, updated_at = now()
        WHERE org_id = ${org} AND id IN (${counts.userId("bob")}, ${counts.userId("dee")}, ${counts.userId("eve")}, ${counts.userId("cid")})`
      expect(yield* exact).toEqual(before)
    }))

  it.effect("a change of organization role, name, email or manager changes no count; finishing setting up counts as signed up", () =>
    Effect.gen(function*() {
      const { counts } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = counts.organizationId
      const before = yield* countedCounts(org)
      yield* sql`UPDATE users SET org_role = 'admin', name = 'Eve Renamed', email = 'eve.new@counts.test', manager_id = ${counts.userId("ann")}
        WHERE org_id = ${org} AND id = ${counts.userId("eve")}`
      expect(yield* exact).toEqual(before)
      yield* sql`UPDATE users SET signed_up = true WHERE org_id = ${org} AND id = ${counts.userId("cid")}`
      expect((yield* exact).signedUp).toBe(before.signedUp + 1)
      yield* sql`UPDATE users SET signed_up = false WHERE org_id = ${org} AND id = ${counts.userId("cid")}`
      expect(yield* exact).toEqual(before)
    }))

  it.effect("a role taken on, ended, moved to another role or removed changes those roles' counts; a deactivated holder counts in none", () =>
    Effect.gen(function*() {
      const { counts } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = counts.organizationId
      const [ops, desk, idle] = [counts.roleId("ops"), counts.roleId("desk"), counts.roleId("idle")]
      const eve = counts.userId("eve")
      const before = yield* countedCounts(org)
      const count = (counted: typeof before, role: string) => counted.roles[role] ?? 0
      yield* sql`INSERT INTO role_members (org_id, role_id, user_id) VALUES (${org}, ${ops}, ${eve}), (${org}, ${idle}, ${counts.userId("dee")})`
      const taken = yield* exact
      expect([count(taken, ops), count(taken, idle)]).toEqual([count(before, ops) + 1, count(before, idle)])
      yield* sql`UPDATE role_members SET ended_at = now() WHERE org_id = ${org} AND role_id = ${ops} AND user_id = ${eve} AND ended_at IS NULL`
      expect(count(yield* exact, ops)).toBe(count(before, ops))
      yield* sql`UPDATE role_members SET role_id = ${idle} WHERE org_id = ${org} AND role_id = ${desk} AND user_id = ${eve} AND ended_at IS NULL`
      const moved = yield* exact
      expect([count(moved, desk), count(moved, idle)]).toEqual([count(before, desk) - 1, count(before, idle) + 1])
      yield* sql`DELETE FROM role_members WHERE org_id = ${org} AND user_id = ${eve}`
      expect(count(yield* exact, idle)).toBe(count(before, idle))
      yield* sql`INSERT INTO role_members (org_id, role_id, user_id) VALUES (${org}, ${desk}, ${eve})`
      yield* sql`DELETE FROM role_members WHERE org_id = ${org} AND role_id = ${idle} AND user_id = ${counts.userId("dee")}`
      expect(yield* exact).toEqual(before)
    }))

  it.effect("someone removed from the organization (their holdings and teams first, then themself) leaves every count", () =>
    Effect.gen(function*() {
      const { counts } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = counts.organizationId
      const before = yield* countedCounts(org)
      const eve = counts.userId("eve")
      yield* sql.withTransaction(Effect.all([
        sql`DELETE FROM role_members WHERE org_id = ${org} AND user_id = ${eve}`,
        sql`DELETE FROM team_members WHERE org_id = ${org} AND user_id = ${eve}`,
        sql`DELETE FROM users WHERE org_id = ${org} AND id = ${eve}`
      ]))
      const counted = yield* exact
      expect([counted.active, counted.signedUp, counted.roles[counts.roleId("desk")]]).toEqual([
        before.active - 1,
        before.signedUp - 1,
        before.roles[counts.roleId("desk")]! - 1
      ])
    }))

  it.effect("writes in one organization leave the other's counts as they were", () =>
    Effect.gen(function*() {
      const { elsewhere } = yield* setup
      expect(yield* expectExactCounts(elsewhere, "ann")).toEqual({
        active: 5,
        deactivated: 1,
        signedUp: 5,
        roles: { [elsewhere.roleId("ops")]: 2, [elsewhere.roleId("desk")]: 3 }
      })
    }))

  it.effect("the unfiltered listings take their total and member counts from the kept counts; filtered ones count their rows", () =>
    Effect.gen(function*() {
      const { elsewhere } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = elsewhere.organizationId
      const members = yield* Members
      const access = elsewhere.access("ann", policies.members.list)
      const listedTotals = Effect.all([
        Effect.map(members.list(access, {}), (page) => page.total),
        Effect.map(members.list(access, { status: "all" }), (page) => page.total),
        Effect.map(members.list(access, { query: "viewer" }), (page) => page.total),
        Effect.map(members.list(access, { teamId: elsewhere.teamId("crew") }), (page) => page.total)
      ])
      const roleCount = Effect.map(
        Effect.flatMap(CompanyRoles, (roles) => roles.get(elsewhere.access("ann", policies.companyRoles.get), elsewhere.roleId("desk"))),
        (role) => role.memberCount
      )
      const [totals, desk] = [yield* listedTotals, yield* roleCount]
      // Only to see where the listings read from; put back below.
      yield* sql`UPDATE member_counts SET active = active + 1000 WHERE org_id = ${org}`
      yield* sql`UPDATE company_role_member_counts SET members = members + 1000 WHERE org_id = ${org} AND role_id = ${elsewhere.roleId("desk")}`
      const [shifted, shiftedDesk] = [yield* listedTotals, yield* roleCount]
      yield* sql`UPDATE member_counts SET active = active - 1000 WHERE org_id = ${org}`
      yield* sql`UPDATE company_role_member_counts SET members = members - 1000 WHERE org_id = ${org} AND role_id = ${elsewhere.roleId("desk")}`
      expect(shifted).toEqual([totals[0] + 1000, totals[1] + 1000, totals[2], totals[3]])
      expect(shiftedDesk).toBe(desk + 1000)
      yield* expectExactCounts(elsewhere, "ann")
    }))
})
