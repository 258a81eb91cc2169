import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { Invitation, ReportingLine, ReportingLineParams } from "@tks/domain/member"
import type { PageParams } from "@tks/domain/page-params"
import { policies } from "@tks/domain/policies"
import { inNameOrder } from "@tks/core/testing/listing-order"
import { acme, acmePeople, other } from "@tks/core/testing/organizations"
import { Members } from "../src/members/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Members.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const imported = importedOnce({ acme, other })
/** Acme, plus invitations whose order only SQL can set up: an accepted one, two at one instant, two microseconds apart. */
const setup = Effect.runSync(Effect.cached(
  Effect.gen(function*() {
    const orgs = yield* imported
    const sql = yield* SqlClient.SqlClient
    const org = orgs.acme.organizationId
    yield* sql`INSERT INTO invitations (org_id, id, name, email, org_role, expires_at, created_at, accepted_at) VALUES
      (${org}, 'inv_accepted', 'Abe Accepted', 'abe@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-05-01T00:00:00Z', now()),
      (${org}, 'inv_tie1', 'Theo Tie', 'theo@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-03-15T00:00:00Z', NULL),
      (${org}, 'inv_tie2', 'Tess Tie', 'tess@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-03-15T00:00:00Z', NULL),
      (${org}, 'inv_micro1', 'Mia Micro', 'mia@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-04-01T00:00:00.000123Z', NULL),
      (${org}, 'inv_micro2', 'Max Micro', 'max@x.test', 'viewer', '2099-01-01T00:00:00Z', '2026-04-01T00:00:00.000456Z', NULL)`
    return orgs
  }).pipe(Effect.orDie)
))

const invitations = (org: Imported, key: string, params: PageParams = {}) =>
  Members.pipe(Effect.flatMap((members) => members.invitations(org.access(key, policies.members.invitations), params)))
const reportingLines = (org: Imported, key: string, params: ReportingLineParams = {}) =>
  Members.pipe(Effect.flatMap((members) => members.reportingLines(org.access(key, policies.members.reportingLines), params)))

/** Pending, newest first; at one instant the higher id first; accepted ones never. */
const pending = ["Max Micro", "Mia Micro", "Tess Tie", "Theo Tie", "Ida Newest", "Ian Newer", "Ivy Old"]

layer(TestLayer)("invitations and reporting lines", (it) => {
  describe("GET /v1/invitations", () => {
    it.effect("an organization admin lists pending invitations newest first; expired is judged against now", () =>
      Effect.gen(function*() {
        const { acme } = yield* setup
        const page = yield* invitations(acme, "bella")
        expect(page.nextCursor).toBeNull()
        expect(page.data.map((row) => row.name)).toEqual(pending)
        expect(page.data.filter((row) => row.expired).map((row) => row.name)).toEqual(["Ivy Old"])
      }))

    it.effect("pages of 1 walk every pending invitation in order, ties and microseconds included", () =>
      Effect.gen(function*() {
        const { acme } = yield* setup
        const seen: Array<string> = []
        let cursor: string | undefined = undefined
        for (let i = 0; i < 10; i++) {
          const page: { data: ReadonlyArray<Invitation>; nextCursor: string | null } = yield* invitations(
            acme,
            "olivia",
            { limit: 1, ...(cursor === undefined ? {} : { cursor }) }
          )
          expect(page.data.length).toBe(1)
          seen.push(page.data[0]!.name)
          if (page.nextCursor === null) break
          cursor = page.nextCursor
        }
        expect(seen).toEqual(pending)
      }))

    it.effect("a tampered cursor, one from another listing or another organization is 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { acme, other } = yield* setup
        const first = yield* invitations(acme, "olivia", { limit: 1 })
        const lines = yield* reportingLines(acme, "olivia", { limit: 1 })
        const [payload, signature] = first.nextCursor!.split(".") as [string, string]
        const flipped = `${signature.slice(0, 5)}${signature[5] === "A" ? "B" : "A"}${signature.slice(6)}`
        const otherKey = Buffer.from(JSON.stringify(["1", "inv_x"])).toString("base64url")
        for (const cursor of [lines.nextCursor!, `${payload}.${flipped}`, `${otherKey}.${signature}`, "abc.def", ""]) {
          const error = yield* Effect.flip(invitations(acme, "olivia", { cursor }))
          expect(error).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
        }
        const foreign = yield* Effect.flip(invitations(other, "otto", { cursor: first.nextCursor! }))
        expect(foreign).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }))

    it.effect("another organization's admin sees only their own invitations", () =>
      Effect.gen(function*() {
        const { other } = yield* setup
        expect((yield* invitations(other, "otto")).data.map((row) => row.name)).toEqual(["Oscar Otherorg"])
      }))
  })

  describe("GET /v1/reporting-lines", () => {
    const names = (rows: ReadonlyArray<ReportingLine>) => rows.map((row) => row.name)
    const active = acmePeople.filter((person) => person.status !== "DEACTIVATED")
    /** What acme's fixture says of each person's manager. */
    const lineOf = (org: Imported, person: (typeof acmePeople)[number]): ReportingLine => {
      const manager = person.manager
      const boss = typeof manager === "string" ? acmePeople.find((p) => p.key === manager)! : undefined
      return {
        id: org.userId(person.key),
        name: person.name,
        status: person.status ?? "ACTIVE",
        reportsTo: manager === undefined
          ? null
          : boss === undefined
          ? { id: null, name: null, status: null }
          : { id: org.userId(boss.key), name: boss.name, status: boss.status ?? "ACTIVE" }
      }
    }

    it.effect("an organization admin lists active people by name with their manager, departed or account-less, and total", () =>
      Effect.gen(function*() {
        const { acme } = yield* setup
        const page = yield* reportingLines(acme, "adam")
        expect(page.total).toBe(active.length)
        expect(page.nextCursor).toBeNull()
        expect(page.data).toEqual(inNameOrder(active, acme.ids.people).map((person) => lineOf(acme, person)))
        expect(page.data.find((row) => row.name === "Rex Reports")?.reportsTo).toEqual({
          id: acme.userId("dora"),
          name: "Dora Departed",
          status: "DEACTIVATED"
        })
        expect(page.data.find((row) => row.name === "Nina Offbook")?.reportsTo).toEqual({ id: null, name: null, status: null })
      }))

    it.effect("status deactivated and all; noManager keeps only people without any manager", () =>
      Effect.gen(function*() {
        const { acme } = yield* setup
        const gone = yield* reportingLines(acme, "olivia", { status: "deactivated" })
        expect(gone.data).toEqual([
          { id: acme.userId("dora"), name: "Dora Departed", status: "DEACTIVATED", reportsTo: null },
          {
            id: acme.userId("gus"),
            name: "Gus Gone",
            status: "DEACTIVATED",
            reportsTo: { id: acme.userId("olivia"), name: "Olivia Owner", status: "ACTIVE" }
          }
        ])
        expect(gone.total).toBe(2)
        expect((yield* reportingLines(acme, "olivia", { status: "all" })).total).toBe(acmePeople.length)
        const managed = ["victor", "rex", "nina", "gus"]
        const unmanaged = (people: typeof acmePeople) =>
          inNameOrder(people.filter((p) => !managed.includes(p.key)), acme.ids.people).map((p) => p.name)
        const noManager = yield* reportingLines(acme, "olivia", { noManager: true })
        expect(names(noManager.data)).toEqual(unmanaged(active))
        expect(noManager.total).toBe(active.length - 3)
        const noManagerAll = yield* reportingLines(acme, "olivia", { noManager: true, status: "all" })
        expect(names(noManagerAll.data)).toEqual(unmanaged(acmePeople))
        expect(names(noManagerAll.data)).toContain("Dora Departed")
        expect((yield* reportingLines(acme, "olivia", { noManager: false })).total).toBe(active.length)
      }))

    it.effect("pages of 2 walk the listing in order, total constant; a cursor from other filters is 400", () =>
      Effect.gen(function*() {
        const { acme } = yield* setup
        const seen: Array<string> = []
        let cursor: string | undefined = undefined
        for (let i = 0; i < 20; i++) {
          const page: { data: ReadonlyArray<ReportingLine>; nextCursor: string | null; total: number } = yield* reportingLines(
            acme,
            "olivia",
            { status: "all", limit: 2, ...(cursor === undefined ? {} : { cursor }) }
          )
          expect(page.total).toBe(acmePeople.length)
          seen.push(...names(page.data))
          if (page.nextCursor === null) break
          cursor = page.nextCursor
        }
        expect(seen).toEqual(names((yield* reportingLines(acme, "olivia", { status: "all" })).data))
        expect(new Set(seen).size).toBe(acmePeople.length)
        const first = yield* reportingLines(acme, "olivia", { limit: 1 })
        for (const params of [{ status: "all" as const }, { noManager: true }]) {
          const error = yield* Effect.flip(reportingLines(acme, "olivia", { ...params, cursor: first.nextCursor! }))
          expect(error).toMatchObject({ code: "INVALID_CURSOR" })
        }
      }))
  })

  describe("directoryManaged", () => {
    it.effect("is true while the connection is pending, active, paused or failing, false once disconnected or without one", () =>
      Effect.gen(function*() {
        const { acme, other } = yield* setup
        const sql = yield* SqlClient.SqlClient
        const members = yield* Members
        const owner = acme.access("olivia", policies.members.get)
        const dan = () => members.get(owner, acme.userId("dan")).pipe(Effect.map((row) => row.directoryManaged))
        const org = acme.organizationId
        for (const status of ["PENDING", "ACTIVE", "PAUSED", "ERROR"]) {
          yield* sql`UPDATE directory_connections SET status = ${status} WHERE org_id = ${org}`
          expect(yield* dan()).toBe(true)
        }
        yield* sql`UPDATE directory_connections SET status = 'DISCONNECTED' WHERE org_id = ${org}`
        expect(yield* dan()).toBe(false)
        const everyone = yield* members.list(acme.access("olivia", policies.members.list), {})
        expect(everyone.data.every((row) => row.directoryManaged === false)).toBe(true)
        yield* sql`UPDATE directory_connections SET status = 'ACTIVE' WHERE org_id = ${org}`
        expect(yield* dan()).toBe(true)
        const pia = yield* members.get(other.access("otto", policies.members.get), other.userId("pia"))
        expect(pia.directoryManaged).toBe(false)
      }))
  })
})
