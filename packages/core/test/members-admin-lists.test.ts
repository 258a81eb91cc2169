import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { Invitation, ReportingLine } from "@tks/domain/member"
import type { OrgRole } from "@tks/domain/roles"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { Members, type ReportingLineParams } from "../src/members/service.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const person = (key: string, name: string, role: OrgRole, extra: Record<string, unknown> = {}) => ({
  key,
  name,
  email: `${key}@acme.test`,
  role,
  ...extra
})

const acme: OrgFixtureInput = {
  organization: { name: "Acme" },
  people: [
    person("olivia", "Olivia Owner", "owner"),
    person("victor", "Victor Viewer", "viewer", { manager: "olivia" }),
    person("tara", "Tara Teamadmin", "viewer"),
    person("ella", "Ella External", "external"),
    person("dora", "Dora Departed", "viewer", { status: "DEACTIVATED", manager: "olivia" }),
    person("rex", "Rex Reports", "viewer", { manager: "dora" }),
    person("nina", "Nina Offbook", "viewer", { manager: { name: "Outside Boss", email: "boss@elsewhere.test" } }),
    person("gus", "Gus Gone", "viewer", { status: "DEACTIVATED" }),
    person("dan", "Dan Directory", "viewer", { directoryManaged: true })
  ],
  teams: [{ key: "ops", name: "Ops", members: [{ person: "tara", role: "team-admin" }] }],
  invitations: [
    { name: "Ivy Old", email: "ivy@x.test", createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-15T00:00:00.000Z" },
    { name: "Ian Tie", email: "ian@x.test", phone: "+15550009", role: "admin", createdAt: "2026-02-01T00:00:00.000Z", expiresAt: "2099-01-01T00:00:00.000Z" },
    { name: "Ida Tie", email: "ida@x.test", createdAt: "2026-02-01T00:00:00.000Z", expiresAt: "2099-01-01T00:00:00.000Z" },
    { name: "Abe Accepted", email: "abe@x.test", createdAt: "2026-03-01T00:00:00.000Z", expiresAt: "2099-01-01T00:00:00.000Z" }
  ],
  directory: { connection: { status: "ACTIVE" } }
}

const other: OrgFixtureInput = {
  organization: { name: "Other" },
  people: [person("otto", "Otto Other", "admin"), person("pia", "Pia Provisioned", "viewer", { directoryManaged: true })],
  invitations: [{ name: "Oscar Otherorg", email: "oscar@x.test", expiresAt: "2099-01-01T00:00:00.000Z" }]
}

const setup = Effect.runSync(Effect.cached(
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const sql = yield* SqlClient.SqlClient
    const main = yield* importer.importOrganization(acme)
    const second = yield* importer.importOrganization(other)
    const org = main.organizationId
    yield* sql`UPDATE invitations SET accepted_at = now() WHERE org_id = ${org} AND email = 'abe@x.test'`
    // Two invitations a few microseconds apart: the keyset must keep full precision.
    yield* sql`INSERT INTO invitations (org_id, id, name, email, org_role, expires_at, created_at) VALUES
      (${org}, 'inv_micro1', 'Mia Micro', 'mia@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-04-01T00:00:00.000123Z'),
      (${org}, 'inv_micro2', 'Max Micro', 'max@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-04-01T00:00:00.000456Z')`
    const actor = (key: string, role: OrgRole, organizationId = org, userId = main.ids.people[key]!): Actor => ({
      organizationId,
      userId,
      role,
      teams: [],
      scopes: [],
      tokenId: "test"
    })
    return { main, second, ids: main.ids.people, actor, org }
  }).pipe(Effect.orDie)
))

const invitations = (actor: Actor, params: { cursor?: string; limit?: number } = {}) =>
  Members.pipe(Effect.flatMap((members) => members.invitations(actor, params)))
const reportingLines = (actor: Actor, params: ReportingLineParams = {}) =>
  Members.pipe(Effect.flatMap((members) => members.reportingLines(actor, params)))

layer(TestLayer)("invitations and reporting lines (SPEC 4.3, 2.5)", (it) => {
  describe("GET /v1/invitations", () => {
    it.effect("organization admins list pending invitations newest first, expired ones marked, without ids", () =>
      Effect.gen(function*() {
        const { actor, org } = yield* setup
        const sql = yield* SqlClient.SqlClient
        // Created at the same instant: the higher id comes first.
        const tied = yield* sql<{ id: string; name: string }>`
          SELECT id, name FROM invitations WHERE org_id = ${org} AND name IN ('Ian Tie', 'Ida Tie')`
        const tie = [...tied].sort((a, b) => (a.id < b.id ? 1 : -1)).map((row) => row.name)
        for (const role of ["owner", "admin", "billing-admin"] as const) {
          const page = yield* invitations(actor("olivia", role))
          expect(page.nextCursor).toBeNull()
          expect("total" in page).toBe(false)
          expect(page.data.map((row) => row.name)).toEqual(["Max Micro", "Mia Micro", ...tie, "Ivy Old"])
          const ian = page.data.find((row) => row.name === "Ian Tie")
          expect(ian).toEqual({
            name: "Ian Tie",
            email: "ian@x.test",
            phone: "+15550009",
            role: "admin",
            expiresAt: "2099-01-01T00:00:00.000Z",
            expired: false
          })
          const ivy = page.data.find((row) => row.name === "Ivy Old")
          expect(ivy).toMatchObject({ expired: true, expiresAt: "2026-01-15T00:00:00.000Z", phone: null, role: "viewer" })
          for (const row of page.data) expect("id" in row).toBe(false)
        }
      }))

    it.effect("pages of 1 walk every pending invitation in order, ties and microseconds included", () =>
      Effect.gen(function*() {
        const { actor, org } = yield* setup
        const sql = yield* SqlClient.SqlClient
        const expected = yield* sql<{ name: string }>`
          SELECT name FROM invitations WHERE org_id = ${org} AND accepted_at IS NULL ORDER BY created_at DESC, id DESC`
        const seen: Array<string> = []
        let cursor: string | undefined = undefined
        for (let i = 0; i < 10; i++) {
          const page: { data: ReadonlyArray<Invitation>; nextCursor: string | null } = yield* invitations(
            actor("olivia", "owner"),
            { limit: 1, ...(cursor === undefined ? {} : { cursor }) }
          )
          expect(page.data.length).toBe(1)
          seen.push(page.data[0]!.name)
          if (page.nextCursor === null) break
          cursor = page.nextCursor
        }
        expect(seen).toEqual(expected.map((row) => row.name))
        expect(seen.length).toBe(5)
        expect(seen.slice(0, 2)).toEqual(["Max Micro", "Mia Micro"])
      }))

    it.effect("a tampered cursor or one from another listing is 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        const first = yield* invitations(actor("olivia", "owner"), { limit: 1 })
        const lines = yield* reportingLines(actor("olivia", "owner"), { limit: 1 })
        const [payload, signature] = first.nextCursor!.split(".") as [string, string]
        const flipped = `${signature.slice(0, 5)}${signature[5] === "A" ? "B" : "A"}${signature.slice(6)}`
        const otherKey = Buffer.from(JSON.stringify(["1", "inv_x"])).toString("base64url")
        for (const cursor of [lines.nextCursor!, `${payload}.${flipped}`, `${otherKey}.${signature}`, "abc.def", ""]) {
          const error = yield* Effect.flip(invitations(actor("olivia", "owner"), { cursor }))
          expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
        }
      }))

    it.effect("another organization's admin sees only their own invitations", () =>
      Effect.gen(function*() {
        const { actor, second } = yield* setup
        const otto = actor("otto", "admin", second.organizationId, second.ids.people.otto!)
        const page = yield* invitations(otto)
        expect(page.data.map((row) => row.name)).toEqual(["Oscar Otherorg"])
      }))

    it.effect("anyone but an organization admin gets 403 (viewer, team admin, external)", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        for (const [key, role] of [["victor", "viewer"], ["tara", "viewer"], ["ella", "external"]] as const) {
          expect(yield* Effect.flip(invitations(actor(key, role)))).toMatchObject({ _tag: "Forbidden" })
        }
      }))
  })

  describe("GET /v1/reporting-lines", () => {
    const names = (rows: ReadonlyArray<ReportingLine>) => rows.map((row) => row.name)

    it.effect("organization admins list active people by name with their manager and total", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        for (const role of ["owner", "admin", "billing-admin"] as const) {
          const page = yield* reportingLines(actor("olivia", role))
          expect(page.total).toBe(7)
          expect(page.nextCursor).toBeNull()
          expect(page.data).toEqual([
            { id: ids.dan, name: "Dan Directory", status: "ACTIVE", reportsTo: null },
            { id: ids.ella, name: "Ella External", status: "ACTIVE", reportsTo: null },
            { id: ids.nina, name: "Nina Offbook", status: "ACTIVE", reportsTo: { id: null, name: null, status: null } },
            { id: ids.olivia, name: "Olivia Owner", status: "ACTIVE", reportsTo: null },
            { id: ids.rex, name: "Rex Reports", status: "ACTIVE", reportsTo: { id: ids.dora, name: "Dora Departed", status: "DEACTIVATED" } },
            { id: ids.tara, name: "Tara Teamadmin", status: "ACTIVE", reportsTo: null },
            { id: ids.victor, name: "Victor Viewer", status: "ACTIVE", reportsTo: { id: ids.olivia, name: "Olivia Owner", status: "ACTIVE" } }
          ])
        }
      }))

    it.effect("status deactivated and all; noManager keeps only people without any manager", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const admin = actor("olivia", "owner")
        const gone = yield* reportingLines(admin, { status: "deactivated" })
        expect(gone.data).toEqual([
          { id: ids.dora, name: "Dora Departed", status: "DEACTIVATED", reportsTo: { id: ids.olivia, name: "Olivia Owner", status: "ACTIVE" } },
          { id: ids.gus, name: "Gus Gone", status: "DEACTIVATED", reportsTo: null }
        ])
        expect(gone.total).toBe(2)
        expect((yield* reportingLines(admin, { status: "all" })).total).toBe(9)
        const noManager = yield* reportingLines(admin, { noManager: true })
        expect(names(noManager.data)).toEqual(["Dan Directory", "Ella External", "Olivia Owner", "Tara Teamadmin"])
        expect(noManager.total).toBe(4)
        const noManagerAll = yield* reportingLines(admin, { noManager: true, status: "all" })
        expect(names(noManagerAll.data)).toEqual(["Dan Directory", "Ella External", "Gus Gone", "Olivia Owner", "Tara Teamadmin"])
        expect((yield* reportingLines(admin, { noManager: false })).total).toBe(7)
      }))

    it.effect("pages of 2 walk the listing in order, total constant; a cursor from other filters is 400", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        const admin = actor("olivia", "owner")
        const seen: Array<string> = []
        let cursor: string | undefined = undefined
        for (let i = 0; i < 10; i++) {
          const page: { data: ReadonlyArray<ReportingLine>; nextCursor: string | null; total: number } = yield* reportingLines(
            admin,
            { status: "all", limit: 2, ...(cursor === undefined ? {} : { cursor }) }
          )
          expect(page.total).toBe(9)
          seen.push(...names(page.data))
          if (page.nextCursor === null) break
          cursor = page.nextCursor
        }
        expect(seen).toEqual(names((yield* reportingLines(admin, { status: "all" })).data))
        expect(new Set(seen).size).toBe(9)
        const first = yield* reportingLines(admin, { limit: 1 })
        for (const params of [{ status: "all" as const }, { noManager: true }]) {
          const error = yield* Effect.flip(reportingLines(admin, { ...params, cursor: first.nextCursor! }))
          expect(error).toMatchObject({ code: "INVALID_CURSOR" })
        }
      }))

    it.effect("anyone but an organization admin gets 403 (viewer, team admin, external)", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        for (const [key, role] of [["victor", "viewer"], ["tara", "viewer"], ["ella", "external"]] as const) {
          expect(yield* Effect.flip(reportingLines(actor(key, role)))).toMatchObject({ _tag: "Forbidden" })
        }
      }))
  })

  describe("directoryManaged", () => {
    it.effect("is true while the connection is pending, active, paused or failing, false once disconnected or without one", () =>
      Effect.gen(function*() {
        const { actor, ids, org, second } = yield* setup
        const sql = yield* SqlClient.SqlClient
        const members = yield* Members
        const dan = () => members.get(actor("olivia", "owner"), ids.dan!).pipe(Effect.map((row) => row.directoryManaged))
        for (const status of ["PENDING", "ACTIVE", "PAUSED", "ERROR"]) {
          yield* sql`UPDATE directory_connections SET status = ${status} WHERE org_id = ${org}`
          expect(yield* dan()).toBe(true)
        }
        yield* sql`UPDATE directory_connections SET status = 'DISCONNECTED' WHERE org_id = ${org}`
        expect(yield* dan()).toBe(false)
        const everyone = yield* members.list(actor("olivia", "owner"), {})
        expect(everyone.data.every((row) => row.directoryManaged === false)).toBe(true)
        yield* sql`UPDATE directory_connections SET status = 'ACTIVE' WHERE org_id = ${org}`
        expect(yield* dan()).toBe(true)
        const otto = actor("otto", "admin", second.organizationId, second.ids.people.otto!)
        const pia = yield* members.get(otto, second.ids.people.pia!)
        expect(pia.directoryManaged).toBe(false)
      }))
  })
})
