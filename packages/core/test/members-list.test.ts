import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { Member } from "@tks/domain/member"
import type { OrgRole } from "@tks/domain/roles"
import { TestDatabaseLive } from "@tks/db/test-database"
import { FixtureImporter } from "../src/org-import/importer.js"
import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { containsPattern } from "../src/shared/text-search.js"
import { type MemberListParams, Members } from "../src/members/service.js"

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
    person("olivia", "Olivia Owner", "owner", { phone: "+15550001" }),
    person("adam", "adam Admin", "admin"),
    person("bella", "Bella Billing", "billing-admin"),
    person("victor", "Victor Viewer", "viewer", { manager: "olivia", phone: "+15550002" }),
    person("tara", "Tara Teamadmin", "viewer"),
    person("ella", "Ella External", "external"),
    person("dora", "Dora Departed", "viewer", { status: "DEACTIVATED", deactivatedAt: "2026-01-15T08:30:00.000Z" }),
    person("rex", "Rex Reports", "viewer", { manager: "dora" }),
    person("nina", "Nina Offbook", "viewer", { manager: { name: "Outside Boss", email: "boss@elsewhere.test" } }),
    person("percy", "Percy 100% Sure", "viewer"),
    person("una", "Una Under_score", "viewer"),
    person("basil", "Basil Back\\slash", "viewer"),
    person("dan", "Dan Directory", "viewer", { directoryManaged: true, signedUp: false }),
    person("sam1", "Sam Same", "viewer"),
    person("sam2", "sam same", "viewer")
  ],
  teams: [
    {
      key: "ops",
      name: "Ops",
      members: [{ person: "tara", role: "team-admin" }, { person: "victor" }, { person: "rex" }, { person: "dora" }]
    },
    { key: "alpha", name: "Alpha", members: [{ person: "victor", role: "team-admin" }] },
    { key: "empty", name: "Empty", members: [] }
  ],
  companyRoles: [
    { key: "lead", name: "Warehouse Lead", members: [{ person: "victor" }] },
    { key: "driver", name: "Driver", members: [{ person: "victor" }] },
    {
      key: "clerk",
      name: "Clerk",
      members: [{ person: "victor", startedAt: "2025-01-01T00:00:00.000Z", endedAt: "2025-06-01T00:00:00.000Z" }]
    }
  ],
  directory: { connection: { status: "ACTIVE" } }
}

const other: OrgFixtureInput = {
  organization: { name: "Other" },
  people: [person("otto", "Otto Other", "admin")],
  teams: [{ key: "otherTeam", name: "Other Team", members: [{ person: "otto" }] }]
}

const setup = Effect.runSync(Effect.cached(
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const main = yield* importer.importOrganization(acme)
    const second = yield* importer.importOrganization(other)
    const ids = main.ids.people
    const actor = (key: string, role: OrgRole, teams: Actor["teams"] = []): Actor => ({
      organizationId: main.organizationId,
      userId: ids[key]!,
      role,
      teams,
      scopes: [],
      tokenId: "test"
    })
    return { main, second, ids, actor }
  }).pipe(Effect.orDie)
))

const list = (actor: Actor, params: MemberListParams = {}) =>
  Members.pipe(Effect.flatMap((members) => members.list(actor, params)))

const names = (rows: ReadonlyArray<Member>) => rows.map((row) => row.name)

const failureOf = <A, E>(effect: Effect.Effect<A, E, Members>) => Effect.flip(effect)

const nameOf = new Map((acme.people ?? []).map((p) => [p.key, p.name]))
const departed = ["dora"]
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** Member ids in the listing order: lower-cased name, then id. */
const ordered = (ids: Record<string, string>, keys: ReadonlyArray<string>) =>
  [...keys]
    .sort((a, b) => cmp(nameOf.get(a)!.toLowerCase(), nameOf.get(b)!.toLowerCase()) || cmp(ids[a]!, ids[b]!))
    .map((key) => ids[key]!)
const activeKeys = (acme.people ?? []).map((p) => p.key).filter((key) => !departed.includes(key))
const allKeys = (acme.people ?? []).map((p) => p.key)
const idsOf = (rows: ReadonlyArray<Member>) => rows.map((row) => row.id)


layer(TestLayer)("members listing (SPEC 4.3, 2.5)", (it) => {
  it("LIKE wildcards in a query are taken literally", () => {
    expect(containsPattern("100%")).toBe("%100\\%%")
    expect(containsPattern("a_b\\c")).toBe("%a\\_b\\\\c%")
  })

  describe("organization admins", () => {
    it.effect("an owner, admin or billing admin lists every active member by name, with total", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        for (const role of ["owner", "admin", "billing-admin"] as const) {
          const page = yield* list(actor("olivia", role))
          expect(idsOf(page.data)).toEqual(ordered(ids, activeKeys))
          expect(page.total).toBe(activeKeys.length)
          expect(page.nextCursor).toBeNull()
        }
      }))

    it.effect("people with the same name are ordered by id", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const page = yield* list(actor("olivia", "owner"), { query: "sam same" })
        expect(page.data.map((row) => row.id)).toEqual([ids.sam1!, ids.sam2!].sort())
      }))

    it.effect("a row carries companyRoles held now and teams by name, and the admin-only fields", () =>
      Effect.gen(function*() {
        const { actor, ids, main } = yield* setup
        const page = yield* list(actor("olivia", "owner"), { query: "victor" })
        expect(page.data).toEqual([{
          id: ids.victor,
          name: "Victor Viewer",
          email: "victor@acme.test",
          status: "ACTIVE",
          signedUp: true,
          role: "viewer",
          companyRoles: [
            { id: main.ids.companyRoles.driver, name: "Driver" },
            { id: main.ids.companyRoles.lead, name: "Warehouse Lead" }
          ],
          teams: [
            { id: main.ids.teams.alpha, name: "Alpha", role: "team-admin" },
            { id: main.ids.teams.ops, name: "Ops", role: "team-viewer" }
          ],
          phone: "+15550002",
          directoryManaged: false,
          deactivatedAt: null,
          reportsTo: { id: ids.olivia, name: "Olivia Owner", status: "ACTIVE" }
        }])
      }))

    it.effect("reportsTo names a departed manager as DEACTIVATED, nulls an account-less one, and is null without one", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const rows = (yield* list(actor("olivia", "owner"), { status: "all" })).data
        const byName = new Map(rows.map((row) => [row.name, row]))
        expect(byName.get("Rex Reports")?.reportsTo).toEqual({ id: ids.dora, name: "Dora Departed", status: "DEACTIVATED" })
        expect(byName.get("Nina Offbook")?.reportsTo).toEqual({ id: null, name: null, status: null })
        expect(byName.get("Olivia Owner")?.reportsTo).toBeNull()
        expect(byName.get("Dora Departed")?.deactivatedAt).toBe("2026-01-15T08:30:00.000Z")
      }))

    it.effect("directoryManaged is true for a provisioned person while the connection is not disconnected; signedUp false is shown", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        const [dan] = (yield* list(actor("olivia", "owner"), { query: "dan dir" })).data
        expect(dan?.directoryManaged).toBe(true)
        expect(dan?.signedUp).toBe(false)
      }))

    it.effect("status deactivated lists only people who left; all lists everyone", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const gone = yield* list(actor("olivia", "owner"), { status: "deactivated" })
        expect(names(gone.data)).toEqual(["Dora Departed"])
        expect(gone.total).toBe(1)
        const all = yield* list(actor("olivia", "owner"), { status: "all" })
        expect(idsOf(all.data)).toEqual(ordered(ids, allKeys))
        expect(all.total).toBe(allKeys.length)
      }))

    it.effect("query matches anywhere in name or email, case-insensitively", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        const admin = actor("olivia", "owner")
        expect(names((yield* list(admin, { query: "EPOR" })).data)).toEqual(["Rex Reports"])
        expect(names((yield* list(admin, { query: "OLIVIA@ACME" })).data)).toEqual(["Olivia Owner"])
        const byDomain = yield* list(admin, { query: "@Acme.Test" })
        expect(byDomain.total).toBe(activeKeys.length)
        expect((yield* list(admin, { query: "elsewhere" })).total).toBe(0)
      }))

    it.effect("query wildcards % _ and backslash match only themselves", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        const admin = actor("olivia", "owner")
        expect(names((yield* list(admin, { query: "%" })).data)).toEqual(["Percy 100% Sure"])
        expect(names((yield* list(admin, { query: "_" })).data)).toEqual(["Una Under_score"])
        expect(names((yield* list(admin, { query: "\\" })).data)).toEqual(["Basil Back\\slash"])
      }))

    it.effect("teamId lists only members of that team, status applying", () =>
      Effect.gen(function*() {
        const { actor, main } = yield* setup
        const admin = actor("olivia", "owner")
        const ops = yield* list(admin, { teamId: main.ids.teams.ops! })
        expect(names(ops.data)).toEqual(["Rex Reports", "Tara Teamadmin", "Victor Viewer"])
        expect(ops.total).toBe(3)
        const opsAll = yield* list(admin, { teamId: main.ids.teams.ops!, status: "all" })
        expect(names(opsAll.data)).toEqual(["Dora Departed", "Rex Reports", "Tara Teamadmin", "Victor Viewer"])
        const empty = yield* list(admin, { teamId: main.ids.teams.empty! })
        expect(empty).toEqual({ data: [], nextCursor: null, total: 0 })
      }))

    it.effect("a teamId that is not a team of the organization is 400 Unknown teamId", () =>
      Effect.gen(function*() {
        const { actor, second } = yield* setup
        for (const teamId of ["tea_unknown", second.ids.teams.otherTeam!]) {
          const error = yield* failureOf(list(actor("olivia", "owner"), { teamId }))
          expect(error).toMatchObject({ _tag: "BadRequest", message: "Unknown teamId" })
        }
      }))

    it.effect("noManager=true lists only people with neither a member nor an account-less manager", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const page = yield* list(actor("olivia", "owner"), { noManager: true })
        const expected = ordered(ids, activeKeys.filter((key) => !["victor", "rex", "nina"].includes(key)))
        expect(idsOf(page.data)).toEqual(expected)
        expect(page.total).toBe(expected.length)
        const notFiltered = yield* list(actor("olivia", "owner"), { noManager: false })
        expect(notFiltered.total).toBe(activeKeys.length)
      }))

    it.effect("pages of 2 walk the whole listing in order without duplicates, total constant", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const admin = actor("adam", "admin")
        const seen: Array<string> = []
        let cursor: string | undefined = undefined
        for (let i = 0; i < 20; i++) {
          const page: { data: ReadonlyArray<Member>; nextCursor: string | null; total: number } = yield* list(admin, {
            limit: 2,
            ...(cursor === undefined ? {} : { cursor })
          })
          expect(page.total).toBe(activeKeys.length)
          expect(page.data.length).toBe(page.nextCursor === null ? page.data.length : 2)
          seen.push(...idsOf(page.data))
          if (page.nextCursor === null) break
          cursor = page.nextCursor
        }
        expect(seen).toEqual(ordered(ids, activeKeys))
      }))

    it.effect("a cursor from another listing or a tampered one is 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        const admin = actor("olivia", "owner")
        const first = yield* list(admin, { limit: 1 })
        const cursor = first.nextCursor!
        for (const params of [{ status: "all" as const }, { query: "a" }, { noManager: true }]) {
          const error = yield* failureOf(list(admin, { ...params, cursor }))
          expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
        }
        const fromOtherCaller = yield* failureOf(list(actor("victor", "viewer"), { cursor }))
        expect(fromOtherCaller).toMatchObject({ code: "INVALID_CURSOR" })
        const [payload, signature] = cursor.split(".")
        const forged = `${Buffer.from(JSON.stringify(["zzz", "usr_x"])).toString("base64url")}.${signature}`
        for (const bad of [forged, `${payload}.AAAA`, "garbage", `${cursor}.x`]) {
          expect(yield* failureOf(list(admin, { cursor: bad }))).toMatchObject({ code: "INVALID_CURSOR" })
        }
      }))
  })

  describe("anyone else (single-row view)", () => {
    it.effect("a viewer listing members sees only their own row, without the admin-only fields", () =>
      Effect.gen(function*() {
        const { actor, ids, main } = yield* setup
        const page = yield* list(actor("victor", "viewer"))
        expect(page.total).toBe(1)
        expect(page.nextCursor).toBeNull()
        expect(page.data).toEqual([{
          id: ids.victor,
          name: "Victor Viewer",
          email: "victor@acme.test",
          status: "ACTIVE",
          signedUp: true,
          role: "viewer",
          companyRoles: [
            { id: main.ids.companyRoles.driver, name: "Driver" },
            { id: main.ids.companyRoles.lead, name: "Warehouse Lead" }
          ],
          teams: [
            { id: main.ids.teams.alpha, name: "Alpha", role: "team-admin" },
            { id: main.ids.teams.ops, name: "Ops", role: "team-viewer" }
          ]
        }])
        const row = page.data[0]!
        for (const key of ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]) expect(key in row).toBe(false)
      }))

    it.effect("a team admin sees only their own row too", () =>
      Effect.gen(function*() {
        const { actor, ids, main } = yield* setup
        const tara = actor("tara", "viewer", [{ teamId: main.ids.teams.ops!, role: "team-admin" }])
        const page = yield* list(tara, { teamId: main.ids.teams.ops! })
        expect(page.data.map((row) => row.id)).toEqual([ids.tara])
        expect(page.total).toBe(1)
      }))

    it.effect("their own row appears only when it matches the filters; total counts what they can see", () =>
      Effect.gen(function*() {
        const { actor, main } = yield* setup
        const victor = actor("victor", "viewer")
        expect(yield* list(victor, { query: "percy" })).toEqual({ data: [], nextCursor: null, total: 0 })
        expect(yield* list(victor, { status: "deactivated" })).toEqual({ data: [], nextCursor: null, total: 0 })
        expect(yield* list(victor, { teamId: main.ids.teams.empty! })).toEqual({ data: [], nextCursor: null, total: 0 })
        expect((yield* list(victor, { query: "VIEWER", status: "all", teamId: main.ids.teams.alpha! })).total).toBe(1)
      }))

    it.effect("a non-admin giving an unknown teamId is 400 Unknown teamId", () =>
      Effect.gen(function*() {
        const { actor, second } = yield* setup
        const error = yield* failureOf(list(actor("victor", "viewer"), { teamId: second.ids.teams.otherTeam! }))
        expect(error).toMatchObject({ _tag: "BadRequest", message: "Unknown teamId" })
      }))

    it.effect("noManager given by a non-admin is 403, true or false", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        for (const noManager of [true, false]) {
          const error = yield* failureOf(list(actor("victor", "viewer"), { noManager }))
          expect(error).toMatchObject({ _tag: "Forbidden" })
        }
      }))

    it.effect("an external account listing members gets 403", () =>
      Effect.gen(function*() {
        const { actor } = yield* setup
        expect(yield* failureOf(list(actor("ella", "external")))).toMatchObject({ _tag: "Forbidden" })
      }))
  })

  describe("GET /v1/members/{id}", () => {
    const get = (actor: Actor, id: string) => Members.pipe(Effect.flatMap((members) => members.get(actor, id)))

    it.effect("an organization admin opens anyone with a record, at any status, with the admin fields", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        for (const role of ["owner", "admin", "billing-admin"] as const) {
          const dora = yield* get(actor("adam", role), ids.dora!)
          expect(dora).toMatchObject({ name: "Dora Departed", status: "DEACTIVATED", deactivatedAt: "2026-01-15T08:30:00.000Z", reportsTo: null })
          const rex = yield* get(actor("adam", role), ids.rex!)
          expect(rex.reportsTo).toEqual({ id: ids.dora, name: "Dora Departed", status: "DEACTIVATED" })
        }
      }))

    it.effect("an admin gets 404 for another organization's id and for unknown ids", () =>
      Effect.gen(function*() {
        const { actor, second } = yield* setup
        for (const id of [second.ids.people.otto!, "usr_unknown", ""]) {
          expect(yield* failureOf(get(actor("olivia", "owner"), id))).toMatchObject({ _tag: "NotFound" })
        }
      }))

    it.effect("anyone else opens only themself, without the admin fields; someone else is 404", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        const self = yield* get(actor("victor", "viewer"), ids.victor!)
        expect(self.name).toBe("Victor Viewer")
        for (const key of ["phone", "directoryManaged", "deactivatedAt", "reportsTo"]) expect(key in self).toBe(false)
        expect(yield* failureOf(get(actor("victor", "viewer"), ids.olivia!))).toMatchObject({ _tag: "NotFound" })
        expect(yield* failureOf(get(actor("victor", "viewer"), "usr_unknown"))).toMatchObject({ _tag: "NotFound" })
      }))

    it.effect("an external account opening anyone, themself included, gets 403", () =>
      Effect.gen(function*() {
        const { actor, ids } = yield* setup
        expect(yield* failureOf(get(actor("ella", "external"), ids.ella!))).toMatchObject({ _tag: "Forbidden" })
        expect(yield* failureOf(get(actor("ella", "external"), ids.olivia!))).toMatchObject({ _tag: "Forbidden" })
      }))
  })
})
