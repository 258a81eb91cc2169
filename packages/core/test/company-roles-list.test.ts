import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { CompanyRole, CompanyRoleListParams } from "@tks/domain/company-role"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { CompanyRoles } from "../src/company-roles/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, CompanyRoles.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const list = (org: Imported, key: string, params: CompanyRoleListParams = {}) =>
  CompanyRoles.pipe(Effect.flatMap((roles) => roles.list(org.access(key, policies.companyRoles.list), params)))
/** As Victor, a viewer: the listing does not depend on the caller. */
const asViewer = (params: CompanyRoleListParams = {}) => Effect.flatMap(setup, ({ acme }) => list(acme, "victor", params))

const names = (rows: ReadonlyArray<CompanyRole>) => rows.map((row) => row.name)
/** Acme's company roles by lower-cased name. */
const allNamesSorted = [
  "100% Sure_Thing",
  "Beta",
  "beta tester",
  "Clerk",
  "Driver",
  "Engineer",
  "Facilities Lead",
  "Idle",
  "Legacy Keeper",
  "Site Reliability",
  "Under Study",
  "Warehouse Lead"
]

const walk = (params: CompanyRoleListParams) =>
  Effect.gen(function*() {
    const seen: Array<CompanyRole> = []
    let cursor: string | undefined = undefined
    for (let i = 0; i < 200; i++) {
      const page: { data: ReadonlyArray<CompanyRole>; nextCursor: string | null } = yield* asViewer({
        ...params,
        ...(cursor === undefined ? {} : { cursor })
      })
      seen.push(...page.data)
      if (page.nextCursor === null) return seen
      cursor = page.nextCursor
    }
    throw new Error("pagination did not end")
  })

layer(TestLayer)("GET /v1/company-roles", (it) => {
  it.effect("a caller lists all the organization's roles alphabetically by name, ignoring case", () =>
    Effect.gen(function*() {
      const page = yield* asViewer()
      expect(names(page.data)).toEqual(allNamesSorted)
      expect(page.nextCursor).toBeNull()
    }))

  it.effect("another organization's admin sees only their own organization's roles", () =>
    Effect.gen(function*() {
      const { other } = yield* setup
      expect(names((yield* list(other, "otto")).data)).toEqual(["Alpha Other"])
    }))

  it.effect("memberCount counts current holders who are active; parentRoleId names the parent", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const page = yield* list(acme, "adam", { query: "engineer" })
      expect(page.data).toHaveLength(1)
      const engineer = page.data[0]!
      expect(engineer).toMatchObject({
        id: acme.roleId("eng"),
        name: "Engineer",
        description: "Builds and runs the platform",
        // victor, amy, ella; not dora (deactivated) nor ed (ended)
        memberCount: 3,
        parentRoleId: null
      })
      const sre = (yield* list(acme, "adam", { query: "reliab" })).data[0]!
      expect(sre.parentRoleId).toBe(acme.roleId("eng"))
      expect(sre.memberCount).toBe(1)
      expect(sre.description).toBeNull()
    }))

  it.effect("query is a case-insensitive substring of the name", () =>
    Effect.gen(function*() {
      expect(names((yield* asViewer({ query: "BETA" })).data)).toEqual(["Beta", "beta tester"])
      expect(names((yield* asViewer({ query: "eR" })).data)).toEqual([
        "beta tester",
        "Clerk",
        "Driver",
        "Engineer",
        "Legacy Keeper",
        "Under Study"
      ])
      expect((yield* asViewer({ query: "nobody has this" })).data).toEqual([])
    }))

  it.effect("LIKE wildcards in the query match themselves", () =>
    Effect.gen(function*() {
      expect(names((yield* asViewer({ query: "%" })).data)).toEqual(["100% Sure_Thing"])
      expect(names((yield* asViewer({ query: "_" })).data)).toEqual(["100% Sure_Thing"])
      expect(names((yield* asViewer({ query: "e_t" })).data)).toEqual(["100% Sure_Thing"])
      expect((yield* asViewer({ query: "\\" })).data).toEqual([])
    }))

  it.effect("pages of one and of three walk the whole listing in order without duplicates, filtered or not", () =>
    Effect.gen(function*() {
      for (const limit of [1, 3]) expect(names(yield* walk({ limit }))).toEqual(allNamesSorted)
      const filtered = yield* walk({ query: "e", limit: 2 })
      expect(names(filtered)).toEqual(names((yield* asViewer({ query: "e" })).data))
    }))

  it.effect("a cursor from another query, another organization or a tampered one is INVALID_CURSOR; any caller of the listing may use it", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const cursor = (yield* asViewer({ limit: 1 })).nextCursor!
      for (
        const attempt of [
          asViewer({ query: "e", cursor }),
          list(other, "otto", { cursor }),
          asViewer({ cursor: `${cursor}x` }),
          asViewer({ cursor: "garbage" })
        ]
      ) {
        expect(yield* Effect.flip(attempt)).toMatchObject({ _tag: "BadRequest", code: "INVALID_CURSOR" })
      }
      // The same cursor from any caller of the same listing is fine (the list does not depend on the caller).
      const next = yield* list(acme, "adam", { cursor, limit: 1 })
      expect(names(next.data)).toEqual(["Beta"])
    }))
})
