import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { TeamId } from "@tks/domain/ids"
import type { Member, MemberListParams } from "@tks/domain/member"
import { policies } from "@tks/domain/policies"
import { inNameOrder } from "@tks/core/testing/listing-order"
import { acme, acmePeople, other } from "@tks/core/testing/organizations"
import { Members } from "../src/members/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { containsPattern } from "../src/common/text-search.js"
import { importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

/** GET /v1/members as Olivia (the owner): every rule of the organization-wide listing. */
const list = (params: MemberListParams = {}) =>
  Effect.gen(function*() {
    const { acme } = yield* setup
    return yield* (yield* Members).list(acme.access("olivia", policies.members.list), params)
  })

const names = (rows: ReadonlyArray<Member>) => rows.map((row) => row.name)
const idsOf = (rows: ReadonlyArray<Member>) => rows.map((row) => row.id)

const active = acmePeople.filter((person) => person.status !== "DEACTIVATED")
/** Member ids in the listing order. */
const ordered = (ids: Record<string, string>, people: typeof acmePeople) => inNameOrder(people, ids).map((p) => ids[p.key]!)

layer(TestLayer)("members listing, organization reach", (it) => {
  it("LIKE wildcards in a query are taken literally", () => {
    expect(containsPattern("100%")).toBe("%100\\%%")
    expect(containsPattern("a_b\\c")).toBe("%a\\_b\\\\c%")
  })

  it.effect("an organization admin lists every active member by name, then id, with the total", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* list()
      expect(idsOf(page.data)).toEqual(ordered(acme.ids.people, active))
      expect(page.total).toBe(active.length)
      expect(page.nextCursor).toBeNull()
    }))

  it.effect("people with the same name up to case are ordered by id", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* list({ query: "sam same" })
      expect(idsOf(page.data)).toEqual([acme.userId("sam1"), acme.userId("sam2")].sort())
    }))

  it.effect("a row carries companyRoles held now and teams by name, and the admin-only fields", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* list({ query: "victor" })
      expect(page.data).toEqual([{
        id: acme.userId("victor"),
        name: "Victor Viewer",
        email: "victor@acme.test",
        status: "ACTIVE",
        signedUp: true,
        role: "viewer",
        // Clerk ended: not listed.
        companyRoles: [
          { id: acme.roleId("driver"), name: "Driver" },
          { id: acme.roleId("eng"), name: "Engineer" },
          { id: acme.roleId("lead"), name: "Warehouse Lead" }
        ],
        teams: [
          { id: acme.teamId("alpha"), name: "Alpha", role: "team-viewer" },
          { id: acme.teamId("ops"), name: "Ops", role: "team-viewer" }
        ],
        phone: "+15550002",
        directoryManaged: false,
        deactivatedAt: null,
        reportsTo: { id: acme.userId("olivia"), name: "Olivia Owner", status: "ACTIVE" }
      }])
    }))

  it.effect("reportsTo names a departed manager as DEACTIVATED, nulls an account-less one, and is null without one", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const rows = (yield* list({ status: "all" })).data
      const byName = new Map(rows.map((row) => [row.name, row]))
      expect(byName.get("Rex Reports")?.reportsTo).toEqual({ id: acme.userId("dora"), name: "Dora Departed", status: "DEACTIVATED" })
      expect(byName.get("Nina Offbook")?.reportsTo).toEqual({ id: null, name: null, status: null })
      expect(byName.get("Olivia Owner")?.reportsTo).toBeNull()
      expect(byName.get("Dora Departed")?.deactivatedAt).toBe("2026-01-15T08:30:00.000Z")
    }))

  it.effect("directoryManaged is true for a provisioned person while the connection is not disconnected; signedUp false is shown", () =>
    Effect.gen(function*() {
      const [dan] = (yield* list({ query: "dan dir" })).data
      expect(dan?.directoryManaged).toBe(true)
      expect(dan?.signedUp).toBe(false)
    }))

  it.effect("status deactivated lists only people who left; all lists everyone", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const gone = yield* list({ status: "deactivated" })
      expect(names(gone.data)).toEqual(["Dora Departed", "Gus Gone"])
      expect(gone.total).toBe(2)
      const all = yield* list({ status: "all" })
      expect(idsOf(all.data)).toEqual(ordered(acme.ids.people, acmePeople))
      expect(all.total).toBe(acmePeople.length)
    }))

  it.effect("query matches anywhere in name or email, case-insensitively", () =>
    Effect.gen(function*() {
      expect(names((yield* list({ query: "EPOR" })).data)).toEqual(["Rex Reports"])
      expect(names((yield* list({ query: "OLIVIA@ACME" })).data)).toEqual(["Olivia Owner"])
      expect((yield* list({ query: "@Acme.Test" })).total).toBe(active.length)
      // A manager's address is not the member's.
      expect((yield* list({ query: "elsewhere" })).total).toBe(0)
    }))

  it.effect("query wildcards % _ and backslash match only themselves", () =>
    Effect.gen(function*() {
      expect(names((yield* list({ query: "%" })).data)).toEqual(["Percy 100% Sure"])
      expect(names((yield* list({ query: "_" })).data)).toEqual(["Una Under_score"])
      expect(names((yield* list({ query: "\\" })).data)).toEqual(["Basil Back\\slash"])
    }))

  it.effect("teamId lists only members of that team, status applying", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const ops = yield* list({ teamId: acme.teamId("ops") })
      expect(names(ops.data)).toEqual(["Rex Reports", "Tara Teamadmin", "Victor Viewer"])
      expect(ops.total).toBe(3)
      const opsAll = yield* list({ teamId: acme.teamId("ops"), status: "all" })
      expect(names(opsAll.data)).toEqual(["Dora Departed", "Rex Reports", "Tara Teamadmin", "Victor Viewer"])
      expect(yield* list({ teamId: acme.teamId("empty") })).toEqual({ data: [], nextCursor: null, total: 0 })
    }))

  it.effect("a teamId that is not a team of the organization is 400 Unknown teamId", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      for (const teamId of [other.teamId("otherTeam"), TeamId.make("team_unknown")]) {
        const error = yield* Effect.flip(list({ teamId }))
        expect(error).toMatchObject({ _tag: "BadRequest", message: "Unknown teamId" })
      }
    }))

  it.effect("noManager=true lists only people with neither a member nor an account-less manager", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* list({ noManager: true })
      const expected = ordered(acme.ids.people, active.filter((p) => !["victor", "rex", "nina"].includes(p.key)))
      expect(idsOf(page.data)).toEqual(expected)
      expect(page.total).toBe(expected.length)
      expect((yield* list({ noManager: false })).total).toBe(active.length)
    }))

  it.effect("pages of 2 walk the whole listing in order without duplicates, total constant", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const seen: Array<string> = []
      let cursor: string | undefined = undefined
      for (let i = 0; i < 20; i++) {
        const page: { data: ReadonlyArray<Member>; nextCursor: string | null; total: number } = yield* list({
          limit: 2,
          ...(cursor === undefined ? {} : { cursor })
        })
        expect(page.total).toBe(active.length)
        expect(page.data.length).toBe(page.nextCursor === null ? page.data.length : 2)
        seen.push(...idsOf(page.data))
        if (page.nextCursor === null) break
        cursor = page.nextCursor
      }
      expect(seen).toEqual(ordered(acme.ids.people, active))
    }))

  it.effect("a cursor from another listing (filters, caller, organization) or a tampered one is 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const members = yield* Members
      const cursor = (yield* list({ limit: 1 })).nextCursor!
      for (const params of [{ status: "all" as const }, { query: "a" }, { noManager: true }]) {
        expect(yield* Effect.flip(list({ ...params, cursor }))).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
      for (const caller of [acme.access("victor", policies.members.list), other.access("otto", policies.members.list)]) {
        expect(yield* Effect.flip(members.list(caller, { cursor }))).toMatchObject({ code: "INVALID_CURSOR" })
      }
      const [payload, signature] = cursor.split(".")
      const forged = `${Buffer.from(JSON.stringify(["zzz", "usr_x"])).toString("base64url")}.${signature}`
      for (const bad of [forged, `${payload}.AAAA`, "garbage", `${cursor}.x`]) {
        expect(yield* Effect.flip(list({ cursor: bad }))).toMatchObject({ code: "INVALID_CURSOR" })
      }
    }))
})
