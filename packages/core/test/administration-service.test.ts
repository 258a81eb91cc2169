import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { policies } from "@tks/domain/policies"
import type { Policy } from "@tks/domain/policy"
import type { OrgRole } from "@tks/domain/roles"
import { Administration } from "../src/administration/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { actorIn, allowed } from "./support/access.js"

const TestLayer = Layer.mergeAll(Administration.Default, FixtureImporter.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

/** Someone of `organizationId` with `role`, allowed by `policy`. */
const as = (organizationId: string, role: OrgRole, policy: Policy) => allowed(actorIn(organizationId, role), policy)
const { directoryEvents, directorySync, findings, orgChartVerification } = policies.administration

const importOrg = (fixture: OrgFixtureInput) =>
  FixtureImporter.pipe(Effect.flatMap((importer) => importer.importOrganization(fixture)), Effect.orDie)

/** Inserts findings at exact (microsecond) instants, which a JS Date cannot express. */
const insertFindings = (orgId: string, rows: ReadonlyArray<{ id: string; at: string }>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const row of rows) {
      yield* sql`INSERT INTO findings (org_id, id, content, source_type, system_source_type, author_id, created_at, updated_at)
        VALUES (${orgId}, ${row.id}, ${`finding ${row.id}`}, 'user', NULL, NULL, ${row.at}::timestamptz, ${row.at}::timestamptz)`
    }
  })

const walk = <A>(fetch: (cursor: string | undefined) => Effect.Effect<{ data: ReadonlyArray<A>; nextCursor: string | null }, unknown>) =>
  Effect.gen(function*() {
    const seen: Array<A> = []
    let cursor: string | undefined = undefined
    for (let pages = 0; pages < 50; pages++) {
      const page: { data: ReadonlyArray<A>; nextCursor: string | null } = yield* fetch(cursor)
      seen.push(...page.data)
      if (page.nextCursor === null) return seen
      cursor = page.nextCursor
    }
    throw new Error("pagination did not end")
  })

layer(TestLayer)("Administration service", (it) => {
  describe("findings", () => {
    it.effect("newest first, equal instants broken by id descending, sub-millisecond instants kept apart across pages", () =>
      Effect.gen(function*() {
        const admin = yield* Administration
        const { organizationId: org } = yield* importOrg({ organization: { name: "Findings Org" } })
        const { organizationId: otherOrg } = yield* importOrg({ organization: { name: "Other Findings Org" } })
        // Three findings within one millisecond, two sharing one instant exactly.
        yield* insertFindings(org, [
          { id: "fnd_a", at: "2026-03-01T10:00:00.000100Z" },
          { id: "fnd_b", at: "2026-03-01T10:00:00.000300Z" },
          { id: "fnd_c", at: "2026-03-01T10:00:00.000300Z" },
          { id: "fnd_d", at: "2026-03-01T10:00:00.000200Z" },
          { id: "fnd_e", at: "2026-02-01T09:00:00.000000Z" }
        ])
        yield* insertFindings(otherOrg, [{ id: "fnd_z", at: "2026-03-02T00:00:00.000000Z" }])
        const actor = as(org, "owner", findings)
        const expected = ["fnd_c", "fnd_b", "fnd_d", "fnd_a", "fnd_e"]
        const all = yield* admin.findings(actor, {})
        expect(all.data.map((finding) => finding.id)).toEqual(expected)
        expect(all.nextCursor).toBeNull()
        const walked = yield* walk((cursor) => admin.findings(actor, { cursor, limit: 1 }))
        expect(walked.map((finding) => finding.id)).toEqual(expected)
        expect(all.data[0]).toEqual({
          id: "fnd_c",
          content: "finding fnd_c",
          source: { type: "user", systemSourceType: null },
          createdAt: "2026-03-01T10:00:00.000Z",
          updatedAt: "2026-03-01T10:00:00.000Z"
        })
      }))

    it.effect("a findings cursor is refused by another organization's listing (INVALID_CURSOR)", () =>
      Effect.gen(function*() {
        const admin = yield* Administration
        const { organizationId: org } = yield* importOrg({
          organization: { name: "Cursor Org" },
          findings: [
            { content: "one", source: { type: "user" }, createdAt: "2026-01-01T00:00:00.000Z" },
            { content: "two", source: { type: "user" }, createdAt: "2026-01-02T00:00:00.000Z" }
          ]
        })
        const { organizationId: otherOrg } = yield* importOrg({ organization: { name: "Cursor Other Org" } })
        const first = yield* admin.findings(as(org, "admin", findings), { limit: 1 })
        expect(first.nextCursor).not.toBeNull()
        const error = yield* Effect.flip(admin.findings(as(otherOrg, "admin", findings), { cursor: first.nextCursor!, limit: 1 }))
        expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }))
  })

  describe("org-chart verification", () => {
    it.effect("no record: never_verified on the 90-day default, due, with no dates", () =>
      Effect.gen(function*() {
        const admin = yield* Administration
        const { organizationId: org } = yield* importOrg({ organization: { name: "Never Org" } })
        expect(yield* admin.orgChartVerification(as(org, "viewer", orgChartVerification))).toEqual({
          status: "never_verified",
          lastVerifiedAt: null,
          intervalDays: 90,
          nextDueAt: null,
          isDue: true
        })
      }))

    it.effect("a record never confirmed keeps its own interval and is never_verified", () =>
      Effect.gen(function*() {
        const admin = yield* Administration
        const { organizationId: org } = yield* importOrg({
          organization: { name: "Interval Org" },
          orgChartVerification: { lastVerifiedAt: null, intervalDays: 30 }
        })
        expect(yield* admin.orgChartVerification(as(org, "admin", orgChartVerification))).toEqual({
          status: "never_verified",
          lastVerifiedAt: null,
          intervalDays: 30,
          nextDueAt: null,
          isDue: true
        })
      }))

    it.effect("judged against the database clock: 89 days ago is current, 91 days ago is due", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const admin = yield* Administration
        const { organizationId: current } = yield* importOrg({
          organization: { name: "Current Org" },
          orgChartVerification: { lastVerifiedAt: "2020-01-01T00:00:00.000Z" }
        })
        const { organizationId: due } = yield* importOrg({
          organization: { name: "Due Org" },
          orgChartVerification: { lastVerifiedAt: "2020-01-01T00:00:00.000Z" }
        })
        yield* sql`UPDATE org_chart_verifications SET last_verified_at = date_trunc('milliseconds', now() - interval '89 days') WHERE org_id = ${current}`
        yield* sql`UPDATE org_chart_verifications SET last_verified_at = date_trunc('milliseconds', now() - interval '91 days') WHERE org_id = ${due}`
        const dayMs = 86_400_000
        const currentView = yield* admin.orgChartVerification(as(current, "viewer", orgChartVerification))
        expect(currentView).toMatchObject({ status: "current", intervalDays: 90, isDue: false })
        expect(Date.parse(currentView.nextDueAt!) - Date.parse(currentView.lastVerifiedAt!)).toBe(90 * dayMs)
        const dueView = yield* admin.orgChartVerification(as(due, "viewer", orgChartVerification))
        expect(dueView).toMatchObject({ status: "reverification_due", intervalDays: 90, isDue: true })
        expect(Date.parse(dueView.nextDueAt!) - Date.parse(dueView.lastVerifiedAt!)).toBe(90 * dayMs)
      }))
  })

  describe("directory sync", () => {
    it.effect("tokenActive follows the token: live, none, revoked, expired a moment ago, no expiry; stored status never changes", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const admin = yield* Administration
        const connection = (status: "ACTIVE" | "PENDING", extra: Record<string, unknown>) => ({
          organization: { name: `Dir ${status} ${JSON.stringify(extra)}`, plan: "enterprise" as const },
          directory: { connection: { status, ...extra } }
        })
        const cases = [
          { fixture: connection("ACTIVE", { tokenCreatedAt: "2026-01-01T00:00:00.000Z", tokenExpiresAt: "2999-01-01T00:00:00.000Z" }), active: true },
          { fixture: connection("ACTIVE", { tokenCreatedAt: "2026-01-01T00:00:00.000Z" }), active: true },
          { fixture: connection("PENDING", {}), active: false },
          { fixture: connection("ACTIVE", { tokenCreatedAt: "2026-01-01T00:00:00.000Z", tokenRevoked: true }), active: false },
          { fixture: connection("ACTIVE", { tokenCreatedAt: "2026-01-01T00:00:00.000Z", tokenExpiresAt: "2026-01-02T00:00:00.000Z" }), active: false }
        ]
        for (const { active, fixture } of cases) {
          const { organizationId: org } = yield* importOrg(fixture)
          const view = yield* admin.directorySync(as(org, "owner", directorySync))
          expect(view.eligible).toBe(true)
          expect(view.connection?.tokenActive).toBe(active)
          expect(view.connection?.status).toBe(fixture.directory.connection.status)
        }
        // Expiring exactly at the database's now: no longer active, and the stored row is untouched.
        const { organizationId: org } = yield* importOrg(connection("ACTIVE", { tokenCreatedAt: "2026-01-01T00:00:00.000Z" }))
        yield* sql`UPDATE directory_connections SET token_expires_at = now() - interval '1 millisecond' WHERE org_id = ${org}`
        const before = yield* sql`SELECT * FROM directory_connections WHERE org_id = ${org}`
        const view = yield* admin.directorySync(as(org, "owner", directorySync))
        expect(view.connection).toMatchObject({ status: "ACTIVE", tokenActive: false })
        expect(yield* sql`SELECT * FROM directory_connections WHERE org_id = ${org}`).toEqual(before)
      }))

    it.effect("eligible is the enterprise plan, reported not enforced: a pro organization's connection is still shown", () =>
      Effect.gen(function*() {
        const admin = yield* Administration
        for (const plan of ["starter", "pro"] as const) {
          const { organizationId: org } = yield* importOrg({
            organization: { name: `Plan ${plan}`, plan },
            directory: { connection: { status: "ACTIVE", tokenCreatedAt: "2026-01-01T00:00:00.000Z" } }
          })
          const view = yield* admin.directorySync(as(org, "billing-admin", directorySync))
          expect(view.eligible).toBe(false)
          expect(view.connection).toMatchObject({ status: "ACTIVE", tokenActive: true })
        }
        const { organizationId: none } = yield* importOrg({ organization: { name: "Plan none", plan: "enterprise" } })
        expect(yield* admin.directorySync(as(none, "admin", directorySync))).toEqual({ eligible: true, connection: null })
      }))
  })

  describe("directory events", () => {
    it.effect("filtered by outcome, newest first; the cursor is bound to the filter", () =>
      Effect.gen(function*() {
        const admin = yield* Administration
        const at = (day: number) => `2026-04-${String(day).padStart(2, "0")}T12:00:00.000Z`
        const { organizationId: org } = yield* importOrg({
          organization: { name: "Events Org", plan: "enterprise" },
          directory: {
            connection: { status: "ACTIVE" },
            events: [
              { operation: "CREATE", outcome: "APPLIED", userName: "a@x.test", createdAt: at(1) },
              { operation: "UPDATE", outcome: "REJECTED", reason: "DOMAIN_MISMATCH", userName: "b@y.test", createdAt: at(2) },
              { operation: "CREATE", outcome: "APPLIED", userName: "c@x.test", createdAt: at(3) },
              { operation: "DELETE", outcome: "FAILED", reason: "INTERNAL", userName: "d@x.test", createdAt: at(4) },
              { operation: "UPDATE", outcome: "APPLIED", userName: "e@x.test", createdAt: at(5) }
            ]
          }
        })
        const actor = as(org, "admin", directoryEvents)
        const applied = yield* walk((cursor) => admin.directoryEvents(actor, { outcome: "APPLIED", cursor, limit: 1 }))
        expect(applied.map((event) => event.userName)).toEqual(["e@x.test", "c@x.test", "a@x.test"])
        const rejected = yield* admin.directoryEvents(actor, { outcome: "REJECTED" })
        expect(rejected.data).toEqual([
          { operation: "UPDATE", outcome: "REJECTED", reason: "DOMAIN_MISMATCH", userName: "b@y.test", createdAt: at(2) }
        ])
        const first = yield* admin.directoryEvents(actor, { outcome: "APPLIED", limit: 1 })
        const error = yield* Effect.flip(admin.directoryEvents(actor, { cursor: first.nextCursor!, limit: 1 }))
        expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
        const other = yield* Effect.flip(admin.directoryEvents(actor, { outcome: "FAILED", cursor: first.nextCursor! }))
        expect(other).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
        // A cursor of another endpoint, though its key has the same shape.
        yield* insertFindings(org, [
          { id: "fnd_1", at: "2026-04-01T00:00:00.000000Z" },
          { id: "fnd_2", at: "2026-04-02T00:00:00.000000Z" }
        ])
        const findingsPage = yield* admin.findings(as(org, "admin", findings), { limit: 1 })
        const crossed = yield* Effect.flip(admin.directoryEvents(actor, { cursor: findingsPage.nextCursor! }))
        expect(crossed).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }))
  })
})
